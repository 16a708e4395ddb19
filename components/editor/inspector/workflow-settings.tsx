"use client";

import { useEditorStore, useEditorStoreApi } from "../store";
import { BudgetSetting } from "./budget-setting";
import { inputClass } from "./fields/field-props";
import { VariablesPanel } from "./variables-panel";
import { countOf } from "@/contract";

/** With nothing selected: the workflow's name and description, and problems not tied to a block. */
export function WorkflowSettings() {
  const store = useEditorStoreApi();
  const meta = useEditorStore((state) => state.meta);
  const issues = useEditorStore((state) => state.issues.workflow);
  const blockCount = useEditorStore((state) => state.nodes.length);
  const readOnly = useEditorStore((state) => state.readOnly);
  return (
    <div className="space-y-3 p-4" data-testid="workflow-settings">
      <h2 className="text-sm font-semibold">Workflow</h2>
      <label className="block text-xs font-medium text-slate-700">
        Description
        <textarea
          className={`${inputClass} mt-1`}
          rows={3}
          value={meta.description}
          onChange={(event) => store.getState().updateMeta({ description: event.target.value }, "description")}
        />
      </label>
      <BudgetSetting />
      <VariablesPanel />
      <p className="text-xs text-slate-500">
        {countOf(blockCount, "block")}.{" "}
        {readOnly ? "Select a block to see its settings." : "Select a block to edit it; drag blocks in from the left."}
      </p>
      {issues.length > 0 && (
        <ul className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-700" data-testid="workflow-issues">
          {issues.map((issue, index) => (
            <li key={index}>
              {issue.path ? `${issue.path}: ` : ""}
              {issue.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

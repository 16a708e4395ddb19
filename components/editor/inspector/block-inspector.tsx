"use client";

import { useCallback, useState } from "react";
import { getBlockDefinition, type FieldHint } from "@/blocks";
import { referenceItemsFor } from "../graph/reference-items";
import { useEditorStore, useEditorStoreApi } from "../store";
import { BlockIcon } from "../canvas/block-icon";
import { useBlockIssues } from "../canvas/node-issues";
import { FieldEditor } from "./field-editor";
import { useEnvNames } from "./editor-queries";
import { useSetConfigValue } from "./use-field-value";
import { inputClass } from "./fields/field-props";
import { blockIssuePrefix } from "./issue-paths";
import { withoutBlockPrefix } from "../graph/issues-by-block";
import { TestSampleSection } from "./test-samples/test-sample-section";

export function BlockInspector({ blockId }: { blockId: string }) {
  const store = useEditorStoreApi();
  const data = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data);
  const issues = useBlockIssues(blockId);
  const envNames = useEnvNames();
  const referenceItems = useCallback(() => {
    const state = store.getState();
    const document = state.toDocument();
    return referenceItemsFor(document.blocks, document.edges, state.meta.variables, blockId);
  }, [store, blockId]);
  const envNameList = useCallback(() => envNames.data ?? [], [envNames.data]);
  if (!data) return null;
  const definition = getBlockDefinition(data.type);
  const visible = (field: FieldHint) => !field.showWhen || field.showWhen.equals.includes(String(data.config[field.showWhen.key] ?? ""));
  const unplaced = issues.filter((issue) => !definition?.fields.some((field) => issue.path.startsWith(`${blockIssuePrefix}${field.key}`)));

  return (
    <div className="space-y-3 p-4" data-testid="block-inspector" data-block-id={blockId}>
      <header className="flex items-center gap-2">
        <BlockIcon name={definition?.icon ?? "Box"} className="h-5 w-5 text-slate-600" />
        <div>
          <div className="text-xs text-slate-500">{definition?.label ?? data.type}</div>
          <div className="text-[11px] text-slate-400">{definition?.description}</div>
        </div>
      </header>
      <BlockNameInput blockId={blockId} name={data.name} />
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={data.enabled}
          onChange={(event) => store.getState().updateBlock(blockId, { enabled: event.target.checked })}
          data-testid="field-enabled"
        />
        Enabled (a disabled block is skipped)
      </label>
      {unplaced.length > 0 && (
        <ul className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-700" data-testid="inspector-issues">
          {unplaced.map((issue, index) => (
            <li key={index}>{withoutBlockPrefix(issue.message)}</li>
          ))}
        </ul>
      )}
      {definition?.fields.filter(visible).map((field) => (
        <FieldRow
          key={field.key}
          blockId={blockId}
          field={field}
          value={data.config[field.key]}
          issues={issues}
          referenceItems={referenceItems}
          envNames={envNameList}
        />
      ))}
      <TestSampleSection blockId={blockId} />
    </div>
  );
}

function FieldRow({
  blockId,
  field,
  value,
  issues,
  referenceItems,
  envNames,
}: {
  blockId: string;
  field: FieldHint;
  value: unknown;
  issues: ReadonlyArray<{ path: string; message: string }>;
  referenceItems: () => ReturnType<typeof referenceItemsFor>;
  envNames: () => string[];
}) {
  const onChange = useSetConfigValue(blockId, field.key);
  const mine = issues.filter(
    (issue) =>
      issue.path === `${blockIssuePrefix}${field.key}` ||
      issue.path.startsWith(`${blockIssuePrefix}${field.key}.`) ||
      issue.path.startsWith(`${blockIssuePrefix}${field.key}[`),
  );
  return (
    <div className="space-y-1" data-testid={`field-row-${field.key}`}>
      <div className="text-xs font-medium text-slate-700">{field.label}</div>
      <FieldEditor
        blockId={blockId}
        field={field}
        value={value}
        onChange={onChange}
        invalid={mine.length > 0}
        referenceItems={referenceItems}
        envNames={envNames}
      />
      {field.help && <p className="text-[11px] text-slate-500">{field.help}</p>}
      {mine.map((issue, index) => (
        <p key={index} className="text-[11px] text-red-700" data-testid={`field-issue-${field.key}`}>
          {withoutBlockPrefix(issue.message)}
        </p>
      ))}
    </div>
  );
}

/**
 * Names must stay unique (references use them), so a clash is shown rather than saved. When the
 * edit ends, references to the block's old name are pointed at the new one.
 */
function BlockNameInput({ blockId, name }: { blockId: string; name: string }) {
  const store = useEditorStoreApi();
  const [draft, setDraft] = useState(name);
  const [lastName, setLastName] = useState(name);
  const [nameAtFocus, setNameAtFocus] = useState<string | null>(null);
  // Follows the store when the name changes elsewhere (undo, redo).
  if (name !== lastName) {
    setLastName(name);
    if (name !== draft.trim()) setDraft(name);
  }
  const finishRename = () => {
    if (nameAtFocus === null) return;
    setNameAtFocus(null);
    store.getState().renameReferences(blockId, nameAtFocus);
  };
  return (
    <label className="block text-xs font-medium text-slate-700">
      Name
      <input
        className={`${inputClass} mt-1`}
        value={draft}
        data-testid="field-name"
        onFocus={() => setNameAtFocus(name)}
        onBlur={finishRename}
        onKeyDown={(event) => {
          if (event.key === "Enter") finishRename();
        }}
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value.trim()) store.getState().updateBlock(blockId, { name: event.target.value.trim() }, "name");
        }}
      />
    </label>
  );
}

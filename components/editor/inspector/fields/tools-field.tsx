"use client";

import { useState } from "react";
import { useWorkflowList } from "@/components/workflows/use-workflows";
import { asArray, smallButtonClass, type FieldEditorProps } from "./field-props";
import { JsonField } from "./text-fields";
import { AddToolMenu } from "./tools/add-tool-menu";
import { ToolCard } from "./tools/tool-card";
import {
  entryParams,
  entryType,
  removeAt,
  replaceAt,
  withDirectOutput,
  withRouteOnOutcome,
} from "./tools/tool-entries";
import { useToolCatalog } from "./tools/use-tool-catalog";

/**
 * `tools`: the tool picker. Each chosen tool is a card (its settings, pre-filled values, approval
 * and routing switches); "Add tool" offers built-in tools, MCP servers' tools, workflows and a
 * custom function. Everything is stored as the `tools` entries the registry reads; "Edit as JSON"
 * shows the same entries as text.
 */
export function ToolsField(props: FieldEditorProps) {
  const [asJson, setAsJson] = useState(false);
  const catalog = useToolCatalog();
  const workflows = useWorkflowList();
  const tools = asArray<unknown>(props.value);
  const change = (next: unknown[]) => props.onChange(next.length > 0 ? next : undefined);
  const infoOf = (type: string) => catalog.data?.tools.find((info) => info.type === type);
  const workflowName = (entry: unknown) => {
    const id = entryParams(entry).workflowId;
    return workflows.data?.find((workflow) => workflow.id === id)?.name;
  };

  return (
    <div className="space-y-1.5" data-testid="tool-picker">
      {asJson ? (
        <JsonField {...props} />
      ) : (
        <>
          {tools.length === 0 && <p className="text-xs text-slate-500">No tools: the agent only writes.</p>}
          {tools.map((entry, index) => (
            <ToolCard
              key={index}
              entry={entry}
              index={index}
              info={infoOf(entryType(entry))}
              catalogLoaded={catalog.data !== undefined}
              workflowName={workflowName(entry)}
              onChange={(next) => change(replaceAt(tools, index, next))}
              onRemove={() => change(removeAt(tools, index))}
              onRouteOnOutcome={(on) => change(withRouteOnOutcome(tools, index, on))}
              onDirectOutput={(on) => change(withDirectOutput(tools, index, on))}
              referenceItems={props.referenceItems}
              envNames={props.envNames}
            />
          ))}
          <AddToolMenu tools={tools} onAdd={(entry) => change([...tools, entry])} />
        </>
      )}
      <button
        type="button"
        className={`${smallButtonClass} block`}
        onClick={() => setAsJson(!asJson)}
        data-testid="tools-json-toggle"
      >
        {asJson ? "Back to the tool picker" : "Edit as JSON"}
      </button>
    </div>
  );
}

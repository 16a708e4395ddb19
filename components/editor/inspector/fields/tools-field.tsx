"use client";

import { outcomeNamesOf } from "@/blocks";
import { useWorkflowList } from "@/components/workflows/use-workflows";
import { asArray, type FieldEditorProps } from "./field-props";
import { JsonField } from "./text-fields";

type WorkflowToolEntry = { type: "workflow"; params?: { workflowId?: unknown }; directOutput?: unknown };

function isWorkflowTool(entry: unknown): entry is WorkflowToolEntry {
  return typeof entry === "object" && entry !== null && (entry as { type?: unknown }).type === "workflow";
}

/** The tools after setting one workflow entry's `directOutput` (left out when off, as an entry without it reads). */
export function withDirectOutput(tools: unknown[], index: number, on: boolean): unknown[] {
  return tools.map((entry, at) => {
    if (at !== index || !isWorkflowTool(entry)) return entry;
    const { directOutput: _dropped, ...rest } = entry;
    return on ? { ...rest, directOutput: true } : rest;
  });
}

/**
 * The tools after switching one entry's `routeOnOutcome` (a tool id written as text becomes
 * `{ type }` to carry it; a list of names the entry already gives is kept when on).
 */
export function withRouteOnOutcome(tools: unknown[], index: number, on: boolean): unknown[] {
  return tools.map((entry, at) => {
    if (at !== index) return entry;
    const fields: Record<string, unknown> =
      typeof entry === "string" ? { type: entry.trim() } : typeof entry === "object" && entry !== null ? { ...(entry as Record<string, unknown>) } : {};
    if (!on) {
      delete fields.routeOnOutcome;
      return fields;
    }
    return Array.isArray(fields.routeOnOutcome) ? fields : { ...fields, routeOnOutcome: true };
  });
}

/**
 * `tools`: the entries as JSON and, under it, a switch per entry to route on its tool's outcomes
 * (`routeOnOutcome`), and one per workflow tool: "answer with its output" (`directOutput`), so a
 * workflow called as a skill can answer the user directly.
 */
export function ToolsField(props: FieldEditorProps) {
  const workflows = useWorkflowList();
  const tools = asArray<unknown>(props.value);
  const nameOf = (id: unknown) => (typeof id === "string" ? (workflows.data?.find((workflow) => workflow.id === id)?.name ?? id) : "(no workflow chosen)");
  return (
    <div className="space-y-1">
      <JsonField {...props} />
      {tools.map((entry, index) => {
        const names = outcomeNamesOf(entry);
        const routed = typeof entry === "object" && entry !== null && (entry as { routeOnOutcome?: unknown }).routeOnOutcome;
        // An entry whose tool names are known only when it runs (a whole MCP server) lists them in the JSON instead.
        if (!names || names.length === 0) return null;
        return (
          <label key={`route-${index}`} className="flex items-start gap-2 text-xs text-slate-700" data-testid={`tool-route-outcome-${index}`}>
            <input
              type="checkbox"
              className="mt-0.5"
              checked={routed === true || Array.isArray(routed)}
              onChange={(event) => props.onChange(withRouteOnOutcome(tools, index, event.target.checked))}
            />
            <span>
              Route on <span className="font-medium">{names.join(", ")}</span>: a success and an error handle on the block, taken by its last call
            </span>
          </label>
        );
      })}
      {tools.map((entry, index) =>
        isWorkflowTool(entry) ? (
          <label key={index} className="flex items-start gap-2 text-xs text-slate-700" data-testid={`tool-direct-output-${index}`}>
            <input
              type="checkbox"
              className="mt-0.5"
              checked={entry.directOutput === true}
              onChange={(event) => props.onChange(withDirectOutput(tools, index, event.target.checked))}
            />
            <span>
              <span className="font-medium">{nameOf(entry.params?.workflowId)}</span> answers directly: its output becomes the agent&apos;s answer and the agent
              stops
            </span>
          </label>
        ) : null,
      )}
    </div>
  );
}

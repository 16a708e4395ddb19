"use client";

import { MAX_EDGE_RETRIES } from "@/contract";
import { parseEdgeCondition } from "@/executor";
import { useEditorStore, useEditorStoreApi } from "../store";
import { inputClass } from "./fields/field-props";

/**
 * The selected edge: where it goes and its condition (an extension of the contract), an
 * expression over the source block's output that must hold for the run to take the edge.
 */
export function EdgeInspector({ edgeId }: { edgeId: string }) {
  const store = useEditorStoreApi();
  const edge = useEditorStore((state) => state.edges.find((item) => item.id === edgeId));
  const sourceName = useEditorStore((state) => state.nodes.find((node) => node.id === edge?.source)?.data.name);
  const targetName = useEditorStore((state) => state.nodes.find((node) => node.id === edge?.target)?.data.name);
  const edgeIndex = useEditorStore((state) => state.edges.findIndex((item) => item.id === edgeId));
  const workflowIssues = useEditorStore((state) => state.issues.workflow);
  if (!edge) return null;
  const condition = edge.data?.condition ?? "";
  const parsed = parseEdgeCondition(condition);
  const prefix = `edges[${edgeIndex}]`;
  // The condition as typed is checked here at once; the validator's other problems with this edge follow.
  const others = workflowIssues.filter(
    (issue) => (issue.path === prefix || issue.path.startsWith(`${prefix}.`)) && issue.path !== `${prefix}.condition`,
  );
  const shown = [
    ...(parsed.ok ? [] : [`The condition does not parse: ${parsed.message}`]),
    ...others.map((issue) => issue.message),
  ];
  return (
    <div className="space-y-3 p-4" data-testid="edge-inspector" data-edge-id={edgeId}>
      <header>
        <div className="text-xs text-slate-500">Edge</div>
        <div className="text-sm font-medium text-slate-800" data-testid="edge-inspector-route">
          {sourceName ?? edge.source} → {targetName ?? edge.target}
        </div>
        <div className="text-[11px] text-slate-400">leaves by the {edge.sourceHandle ?? "out"} handle</div>
      </header>
      <label className="block text-xs font-medium text-slate-700">
        Condition
        <input
          className={`${inputClass} mt-1 font-mono`}
          value={condition}
          placeholder="output.status == 200"
          aria-invalid={!parsed.ok}
          spellCheck={false}
          onChange={(event) => store.getState().setEdgeCondition(edgeId, event.target.value)}
          data-testid="edge-condition"
        />
      </label>
      <label className="block text-xs font-medium text-slate-700">
        Retries at most
        <input
          className={`${inputClass} mt-1`}
          type="number"
          min={1}
          max={MAX_EDGE_RETRIES}
          value={edge.data?.maxRetries ?? ""}
          placeholder="not a retry edge"
          onChange={(event) => {
            const value = event.target.valueAsNumber;
            store.getState().setEdgeMaxRetries(edgeId, Number.isFinite(value) ? value : null);
          }}
          data-testid="edge-max-retries"
        />
      </label>
      <p className="text-[11px] text-slate-500">
        A cap makes this a retry edge: it may go back to an earlier block, and the blocks between run again, at most
        this many times; then {sourceName ?? "the source block"} fails, or leaves by its retriesExhausted handle.
      </p>
      <p className="text-[11px] text-slate-500">
        The run takes this edge only when the condition holds. It reads what {sourceName ?? "the source block"} produced
        as <code>output</code>, for example <code>output.status == 200</code> or{" "}
        <code>output.toolOutcomes.run_linter == &quot;error&quot;</code>. Leave it empty to always take the edge when
        its handle is taken.
      </p>
      {shown.length > 0 && (
        <ul className="rounded border border-red-200 bg-red-50 p-2 text-xs text-red-700" data-testid="edge-issues">
          {shown.map((problem, index) => (
            <li key={index}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

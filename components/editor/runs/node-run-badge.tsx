"use client";

import { memo } from "react";
import { nodeById, useEditorStore } from "@/components/editor/store";
import { isEdgeTaken, type CanvasEdge } from "./edges-taken";
import { NodeEstimateBadge } from "./estimate-badges";
import { RunFromHereButton } from "./run-from-here";
import { SimulatedBadge } from "./simulation-badges";
import { formatCost, formatDuration, formatTokens } from "@/components/ui/format";
import { BLOCK_OUTLINES, BLOCK_STATUS_STYLES, blockStatusLabel } from "./status-styles";

/** The most of a node's output its hover text holds; the trace shows all of it. */
const TITLE_LIMIT = 2_000;

/**
 * What a run shows on a node: its state, the text streamed so far, and once finished what it
 * took (duration, tokens, cost). Before that, the block's estimated cost. Each
 * hook here selects one block's state (or a boolean): the reducer replaces only the block an
 * event changed, so a delta on one block re-renders that node alone.
 */
export const NodeRunBadge = memo(function NodeRunBadge({ blockId }: { blockId: string }) {
  const state = useEditorStore((store) => store.run.view.blocks[blockId]);
  if (!state) return <NodeEstimateBadge blockId={blockId} />;
  const finished = state.status === "succeeded" || state.status === "failed";
  return (
    <div
      className="border-t border-slate-100 px-3 py-1.5 text-[11px]"
      data-testid={`block-run-${blockId}`}
      data-status={state.status}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <span
          className={`rounded px-1.5 py-0.5 font-medium ${BLOCK_STATUS_STYLES[state.status]}`}
          data-testid={`block-run-status-${blockId}`}
        >
          {state.status === "running" && (
            <span
              className="mr-1 inline-block h-1.5 w-1.5 animate-pulse rounded-full bg-sky-500 align-middle"
              aria-hidden
            />
          )}
          {blockStatusLabel(state.status)}
          {(state.runs ?? 0) > 1 && ` ×${state.runs}`}
        </span>
        {finished && state.durationMs !== undefined && (
          <span data-testid={`block-run-duration-${blockId}`}>{formatDuration(state.durationMs)}</span>
        )}
        {finished && state.tokens && (
          <span data-testid={`block-run-tokens-${blockId}`}>{formatTokens(state.tokens.total, state.estimated)}</span>
        )}
        {finished && state.tokens && (
          <span data-testid={`block-run-cost-${blockId}`} className={state.unpriced ? "text-amber-700" : undefined}>
            {formatCost(state)}
          </span>
        )}
        {state.reusedFrom && (
          <span
            className="rounded bg-slate-100 px-1 text-slate-600"
            title={`Not run: its result in run ${state.reusedFrom} was reused`}
            data-testid={`block-run-reused-${blockId}`}
          >
            reused
          </span>
        )}
        {state.error?.code === "not_recorded" && (
          <span
            className="rounded bg-amber-100 px-1 font-medium text-amber-900"
            title="A replay: this block asked something its recorded run never asked, so it was not answered and nothing was sent"
            data-testid={`block-run-not-recorded-${blockId}`}
          >
            not recorded
          </span>
        )}
        <SimulatedBadge source={state.simulated} testId={`block-run-simulated-${blockId}`} />
        <RunFromHereButton blockId={blockId} place="node" />
      </div>
      {/* One line each, the whole text on hover and in the trace: a node that grew with its output overlapped its neighbours. */}
      {state.error && (
        <p
          className={`mt-1 truncate ${state.status === "cancelled" ? "text-orange-800" : "text-red-700"}`}
          title={state.error.message}
          data-testid={`block-run-reason-${blockId}`}
        >
          {state.error.message}
        </p>
      )}
      {state.text && (
        <p
          className="mt-1 truncate text-slate-700"
          title={state.text.slice(0, TITLE_LIMIT)}
          data-testid={`block-run-text-${blockId}`}
        >
          {state.text}
        </p>
      )}
    </div>
  );
});

/** Classes that outline a node in its run state; empty when no run is shown. */
export function useBlockRunOutline(blockId: string): string {
  const status = useEditorStore((store) => store.run.view.blocks[blockId]?.status);
  return status ? BLOCK_OUTLINES[status] : "";
}

/** Whether the shown run went along this edge (its source's type and config are read only when its handle needs them). */
export function useEdgeTaken(edge: CanvasEdge): boolean {
  return useEditorStore((store) =>
    isEdgeTaken(store.run.view.blocks, edge, () => nodeById(store.nodes, edge.source)?.data),
  );
}

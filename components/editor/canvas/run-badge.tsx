"use client";

import { memo } from "react";
import { useEditorStore } from "../store";
import type { BlockRunState } from "../store";
import { formatCost, formatDuration, formatTokens } from "./run-format";

const STATUS_STYLES: Record<BlockRunState["status"], string> = {
  pending: "bg-slate-100 text-slate-600",
  running: "bg-sky-100 text-sky-800",
  succeeded: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  skipped: "bg-slate-100 text-slate-400",
};

/**
 * The place on every node where a run shows itself: status, duration, tokens, cost and the text
 * streamed so far. It renders nothing until the run slice holds state for this block.
 */
export const RunBadge = memo(function RunBadge({ blockId }: { blockId: string }) {
  const state = useEditorStore((store) => store.run.blocks[blockId]);
  if (!state) return null;
  return (
    <div className="border-t border-slate-100 px-3 py-1.5 text-[11px]" data-testid={`block-run-${blockId}`} data-status={state.status}>
      <div className="flex flex-wrap items-center gap-1.5">
        <span className={`rounded px-1.5 py-0.5 font-medium ${STATUS_STYLES[state.status]}`} data-testid={`block-run-status-${blockId}`}>
          {state.status}
        </span>
        {state.durationMs !== undefined && <span data-testid={`block-run-duration-${blockId}`}>{formatDuration(state.durationMs)}</span>}
        {state.tokens && <span data-testid={`block-run-tokens-${blockId}`}>{formatTokens(state.tokens.total, state.estimated)}</span>}
        {(state.cost !== undefined || state.unpriced) && <span data-testid={`block-run-cost-${blockId}`}>{formatCost(state.cost ?? null, state.unpriced)}</span>}
      </div>
      {state.error && <p className="mt-1 text-red-700">{state.error.message}</p>}
      {state.text && (
        <p className="nowheel mt-1 max-h-24 overflow-y-auto whitespace-pre-wrap text-slate-700" data-testid={`block-run-text-${blockId}`}>
          {state.text}
        </p>
      )}
    </div>
  );
});

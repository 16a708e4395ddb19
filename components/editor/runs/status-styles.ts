import type { BlockRunStatus } from "@/components/editor/store";

/** Colours of block states on the nodes; a run's own state is coloured by components/ui/run-badges.tsx in the same palette. */
export const BLOCK_STATUS_STYLES: Record<BlockRunStatus, string> = {
  pending: "bg-slate-100 text-slate-600",
  running: "bg-sky-100 text-sky-800",
  succeeded: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  skipped: "bg-slate-100 text-slate-400",
  cancelled: "bg-orange-100 text-orange-800",
};

/** The outline a node wears while a run is shown (kept apart from the selection ring). */
export const BLOCK_OUTLINES: Record<BlockRunStatus, string> = {
  pending: "outline-2 outline-dashed outline-offset-2 outline-slate-300",
  running: "outline-2 outline-solid outline-offset-2 outline-sky-500",
  succeeded: "outline-2 outline-solid outline-offset-2 outline-emerald-500",
  failed: "outline-2 outline-solid outline-offset-2 outline-red-500",
  skipped: "outline-1 outline-dashed outline-offset-2 outline-slate-300 opacity-60",
  cancelled: "outline-2 outline-solid outline-offset-2 outline-orange-400",
};

/** The word a person reads for a block state: the run slice says "pending", people say "queued". */
export function blockStatusLabel(status: BlockRunStatus): string {
  return status === "pending" ? "queued" : status;
}

import type { RunView } from "@/components/editor/store";

const ENDED = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Whether "Run from here" is offered on a block of the run shown: the run has ended and the block
 * ran in it (succeeded or failed). A block skipped or never reached would be skipped again by the
 * reused routing before it; the API refuses it too (lib/runs/rerun.ts).
 */
export function mayRunFromHere(view: Pick<RunView, "runId" | "ended" | "status" | "blocks">, blockId: string): boolean {
  if (!view.runId || !view.ended || !ENDED.has(view.status)) return false;
  const status = view.blocks[blockId]?.status;
  return status === "succeeded" || status === "failed";
}

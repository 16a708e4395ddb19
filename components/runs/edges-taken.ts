import type { BlockRunState } from "@/components/editor/store";

const REACHED: ReadonlySet<BlockRunState["status"]> = new Set(["running", "succeeded", "failed"]);

/**
 * Whether a run went along an edge: its source finished the way the edge's handle leaves it (an
 * `error` handle after a handled failure, any other after success) and its target then ran. A
 * target that is skipped, or still queued, was not reached through it.
 */
export function isEdgeTaken(blocks: Readonly<Record<string, BlockRunState>>, edge: { source: string; target: string; sourceHandle?: string | null }): boolean {
  const source = blocks[edge.source];
  const target = blocks[edge.target];
  if (!source || !target || !REACHED.has(target.status)) return false;
  // A container's body edge leads into its children while the container itself still runs.
  if (edge.sourceHandle === "body") return REACHED.has(source.status);
  if (edge.sourceHandle === "error") return source.status === "failed" && source.handled === true;
  return source.status === "succeeded";
}

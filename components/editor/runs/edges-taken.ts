import { lookupBlockType } from "@/blocks";
import type { BlockRunState } from "@/components/editor/store";
import type { WorkflowBlock } from "@/contract";
import { conditionHolds, handleTaken, parseEdgeCondition, type EdgeCondition } from "@/executor";

const REACHED: ReadonlySet<BlockRunState["status"]> = new Set(["running", "succeeded", "failed"]);

/** An edge as the canvas knows it. */
export interface CanvasEdge {
  source: string;
  target: string;
  sourceHandle?: string | null;
  condition?: string;
}

/** The source block's type and config: what its handles depend on. */
export type SourceBlock = Pick<WorkflowBlock, "type" | "config">;

/** Conditions parsed once per text: the check runs for every edge on every run event. */
const parsedConditions = new Map<string, EdgeCondition | null>();

function parsedCondition(text: string | undefined): EdgeCondition | null | "invalid" {
  if (!text || text.trim() === "") return null;
  let parsed = parsedConditions.get(text);
  if (parsed === undefined) {
    const result = parseEdgeCondition(text);
    if (!result.ok) return "invalid";
    if (parsedConditions.size > 500) parsedConditions.clear();
    parsedConditions.set(text, (parsed = result.condition));
  }
  return parsed;
}

function holds(condition: EdgeCondition | null | "invalid", output: unknown): boolean {
  if (condition === "invalid") return false;
  if (!condition) return true;
  try {
    return conditionHolds({ handle: "", target: { id: "" }, condition }, output, () => "");
  } catch {
    return false;
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Whether a run went along an edge: its source finished the way the edge's handle leaves it (an
 * `error` handle after a handled failure; after success, a handle the block type says its output
 * leaves by, through the same rule the engine routes with), its condition held over the source's
 * output, and its target then ran. A target that is skipped, or still queued, was not reached
 * through it. `sourceBlock` is asked for only when needed.
 */
export function isEdgeTaken(
  blocks: Readonly<Record<string, BlockRunState>>,
  edge: CanvasEdge,
  sourceBlock?: () => SourceBlock | undefined,
): boolean {
  const source = blocks[edge.source];
  const target = blocks[edge.target];
  if (!source || !target || !REACHED.has(target.status)) return false;
  const handle = edge.sourceHandle ?? "out";
  // A container's body edge leads into its children while the container itself still runs.
  if (handle === "body") return REACHED.has(source.status);
  if (handle === "error")
    return (
      source.status === "failed" &&
      source.handled === true &&
      holds(parsedCondition(edge.condition), { error: source.error ?? null })
    );
  if (source.status !== "succeeded") return false;
  const block = sourceBlock?.();
  const info = block ? lookupBlockType(block.type) : undefined;
  const output = asRecord(source.output);
  if (
    info &&
    block &&
    !handleTaken(info, { ...block, id: edge.source } as WorkflowBlock, output)({ handle, target: { id: edge.target } })
  )
    return false;
  return holds(parsedCondition(edge.condition), source.output);
}

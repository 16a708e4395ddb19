import type { GraphNode } from "../graph";

/** One loop iteration or parallel branch: what `<loop.*>` and `<parallel.*>` read. */
export interface IterationFrame {
  kind: "loop" | "parallel";
  container: GraphNode;
  index: number;
  item: unknown;
  /** Results of the iterations before this one (loops only; parallel branches do not see each other). */
  results: unknown[];
  parent: IterationFrame | null;
}

export function nearestFrame(frame: IterationFrame | null, kind: IterationFrame["kind"]): IterationFrame | null {
  let current = frame;
  while (current && current.kind !== kind) current = current.parent;
  return current;
}

export function frameValue(frame: IterationFrame): Record<string, unknown> {
  return frame.kind === "loop" ? { index: frame.index, item: frame.item, results: frame.results } : { index: frame.index, item: frame.item };
}

import type { GraphNode } from "../graph";

/** One loop iteration or parallel branch: what `<loop.*>` and `<parallel.*>` read. */
export interface IterationFrame {
  kind: "loop" | "parallel";
  container: GraphNode;
  index: number;
  item: unknown;
  /** The loop's results array, shared by its iterations (parallel branches do not see each other's). */
  results: unknown[];
  parent: IterationFrame | null;
}

export function nearestFrame(frame: IterationFrame | null, kind: IterationFrame["kind"]): IterationFrame | null {
  let current = frame;
  while (current && current.kind !== kind) current = current.parent;
  return current;
}

/** What `<loop.…>` reads: `results` is a copy of the earlier iterations' results, made only when read. */
export function frameValue(frame: IterationFrame): Record<string, unknown> {
  return frame.kind === "loop"
    ? { index: frame.index, item: frame.item, results: frame.results.slice(0, frame.index) }
    : { index: frame.index, item: frame.item };
}

/** What a body block gets as input from its container. */
export function frameInput(frame: IterationFrame): Record<string, unknown> {
  return { index: frame.index, item: frame.item };
}

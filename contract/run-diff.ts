import type { TokenCounts } from "./usage";

/** GET /api/runs/:id/diff/:otherId (docs/CONTRACT.md section 12): two runs of a workflow compared block by block. */

/** A piece of a text diff: kept in both, only in the first run (`removed`) or only in the other (`added`). */
export interface TextDiffPart {
  kind: "same" | "added" | "removed";
  text: string;
}

/** A value at a JSON path that differs between the runs (`undefined` sides are sent as absent). */
export interface JsonPathChange {
  /** `content`, `results[2].score`, or `` for the whole value. */
  path: string;
  from?: unknown;
  to?: unknown;
}

/** How a block's output differs: a text diff for text, changed paths for JSON; timings and usage are compared on their own. */
export type OutputDiff =
  | { changed: false }
  | { changed: true; kind: "text"; path: string; parts: TextDiffPart[] }
  | { changed: true; kind: "json"; changes: JsonPathChange[]; truncated: boolean };

/** A figure in both runs (null where the block did not run or had none) and how much the other run's differs. */
export interface FigureChange {
  from: number | null;
  to: number | null;
  /** `to - from`, counting a missing side as 0. */
  delta: number;
}

/** One block (one iteration of it, inside a loop or parallel) in the two runs. */
export interface BlockRunDiff {
  blockId: string;
  blockName: string;
  blockType: string;
  /** Loop and parallel iterations, outermost first; null at the top level. */
  iteration: number[] | null;
  /** `added`: ran only in the other run; `removed`: only in the first; `changed`: something below differs; `same`: nothing does. */
  change: "added" | "removed" | "changed" | "same";
  status: { from: string | null; to: string | null; changed: boolean };
  output: OutputDiff;
  /** Total tokens. */
  tokens: FigureChange;
  /** Total cost in US dollars (an unpriced side counts as null). */
  cost: FigureChange;
  durationMs: FigureChange;
}

/** The answer of GET /api/runs/:id/diff/:otherId: blocks with the largest change first. */
export interface RunDiff {
  runId: string;
  otherRunId: string;
  workflowId: string;
  /**
   * Order: status changes, then added or removed blocks, then changed outputs, then by the
   * largest cost difference, then by the largest duration difference; blocks that are the same last.
   */
  blocks: BlockRunDiff[];
  /** How many blocks differ in status, presence or output (figures alone do not count). */
  changedBlocks: number;
  totals: { status: { from: string; to: string }; tokens: { from: TokenCounts; to: TokenCounts }; cost: FigureChange; durationMs: FigureChange };
}

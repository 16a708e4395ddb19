import { getBlockDefinition } from "@/blocks";
import type { CostRange, WorkflowBlock } from "@/contract";
import { ESTIMATE_DEFAULTS } from "./estimate-defaults";
import type { KnownScope } from "./known-values";
import { resolveKnown } from "./known-values";
import type { RunShape } from "./run-shape";

/** How many times a container runs its body: a known count, or bounds when it is only known during the run. */
interface IterationCount {
  low: number;
  high: number;
  /** Known before the run (a number, or a reference to the input). */
  known: number | undefined;
}

/**
 * How many times a container runs its body, as its definition reads its config (`iterations`: a
 * loop's count, items or `maxIterations`; a parallel's copies or items); unknown and unbounded
 * before the run: the estimate's allowance of parallel branches.
 */
export function iterationCount(container: WorkflowBlock, scope: KnownScope): IterationCount {
  const config = resolveKnown(container.config ?? {}, scope).config;
  const { known, most } = getBlockDefinition(container.type)?.iterations?.(config) ?? {};
  if (known !== undefined) return { low: known, high: known, known };
  return { low: 0, high: most ?? ESTIMATE_DEFAULTS.parallelBranches, known: undefined };
}

/** What past runs say of a block's executions. */
export interface ExecutionHistory {
  runs: number;
  /** Runs in which it ran at least once. */
  ranIn: number;
  /** Its executions in each run in which it ran. */
  perRun: number[];
}

/**
 * How many times a block runs in one run. Low: the known counts of its containers, and 0 when it
 * may be skipped. High: every container at its most. Expected: the known counts, else the
 * average of past runs; weighted by how often past runs took its branch (with no past run, one
 * branch in as many as there are).
 */
export function executionsOf(
  blockId: string,
  shape: RunShape,
  scope: KnownScope,
  history: ExecutionHistory | undefined,
): CostRange {
  const counts = shape.containers(blockId).map((container) => iterationCount(container, scope));
  const product = (pick: (count: IterationCount) => number) => counts.reduce((total, count) => total * pick(count), 1);
  const low = shape.certain.has(blockId) ? product((count) => count.low) : 0;
  // Never below the most executions a past run had (a parallel wider than the allowance).
  const high = Math.max(
    product((count) => count.high),
    ...(history?.perRun ?? []),
  );
  const allKnown = counts.every((count) => count.known !== undefined);
  let expected: number;
  if (history && history.runs > 0) {
    const share = shape.certain.has(blockId) ? 1 : history.ranIn / history.runs;
    const perRun =
      allKnown || history.perRun.length === 0 ? product((count) => count.known ?? 1) : average(history.perRun);
    expected = share * perRun;
  } else {
    expected = shape.branchWeight(blockId) * product((count) => count.known ?? 1);
  }
  return { low, expected: Math.min(Math.max(expected, low), high), high };
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

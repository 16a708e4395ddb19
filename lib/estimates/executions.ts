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

function sizeOf(value: unknown): number | undefined {
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** A loop runs `count` times, once per item, or while its condition holds (at most `maxIterations`); a parallel once per copy or item. */
export function iterationCount(container: WorkflowBlock, scope: KnownScope): IterationCount {
  const config = resolveKnown(container.config ?? {}, scope).config;
  const kind = config.kind;
  const maxIterations = typeof config.maxIterations === "number" ? config.maxIterations : 1000;
  let known: number | undefined;
  if (container.type === "loop") {
    if (kind === "while") return { low: 0, high: maxIterations, known: undefined };
    known = sizeOf(kind === "forEach" ? config.collection : (config.count ?? config.collection));
    if (known !== undefined) known = Math.min(known, maxIterations);
    return known === undefined ? { low: 0, high: maxIterations, known } : { low: known, high: known, known };
  }
  known = sizeOf(kind === "collection" ? config.collection : config.count);
  return known === undefined ? { low: 0, high: ESTIMATE_DEFAULTS.parallelBranches, known } : { low: known, high: known, known };
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
export function executionsOf(blockId: string, shape: RunShape, scope: KnownScope, history: ExecutionHistory | undefined): CostRange {
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
    const perRun = allKnown || history.perRun.length === 0 ? product((count) => count.known ?? 1) : average(history.perRun);
    expected = share * perRun;
  } else {
    expected = shape.branchWeight(blockId) * product((count) => count.known ?? 1);
  }
  return { low, expected: Math.min(Math.max(expected, low), high), high };
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

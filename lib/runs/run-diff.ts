import type { ApiRun, ApiSpan, BlockRunDiff, FigureChange, JsonPathChange, OutputDiff, RunDiff } from "@/contract";
import { DiffBudget, diffText } from "./text-diff";

/**
 * Output fields that say how long or how much, not what: they differ on every run, and the diff
 * compares duration, tokens and cost on their own.
 */
const FIGURE_KEYS: ReadonlySet<string> = new Set([
  "providerTiming",
  "tokens",
  "cost",
  "unpriced",
  "estimated",
  "startTime",
  "endTime",
  "duration",
  "durationMs",
]);

/** At most this many changed JSON paths per block are listed. */
const MAX_PATH_CHANGES = 50;

const keyOf = (span: Pick<ApiSpan, "blockId" | "iteration">) => `${span.blockId}@${(span.iteration ?? []).join(".")}`;

/** Each block's span (per iteration) in a run: the last attempt where a block ran more than once (a resumed run). */
function blockSpans(run: ApiRun): Map<string, ApiSpan> {
  const spans = new Map<string, ApiSpan>();
  const ordered = run.spans
    .filter((span) => span.kind === "block")
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const span of ordered) spans.set(keyOf(span), span);
  return spans;
}

function withoutFigures(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFigures);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !FIGURE_KEYS.has(key))
        .map(([key, inner]) => [key, withoutFigures(inner)]),
    );
  }
  return value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function pathOf(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** The leaves that differ, by path; `from` or `to` left out where that side has nothing. */
function changedPaths(from: unknown, to: unknown, path: string, out: JsonPathChange[]): void {
  if (JSON.stringify(from) === JSON.stringify(to)) return;
  if (isPlainObject(from) && isPlainObject(to)) {
    for (const key of new Set([...Object.keys(from), ...Object.keys(to)]))
      changedPaths(from[key], to[key], pathOf(path, key), out);
    return;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    for (let index = 0; index < Math.max(from.length, to.length); index += 1)
      changedPaths(from[index], to[index], pathOf(path, index), out);
    return;
  }
  out.push({ path, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
}

/** A text diff where one text field changed, otherwise the changed JSON paths; text diffs spend from `budget`. */
export function diffOutput(from: unknown, to: unknown, budget: DiffBudget = new DiffBudget()): OutputDiff {
  const changes: JsonPathChange[] = [];
  changedPaths(withoutFigures(from ?? null), withoutFigures(to ?? null), "", changes);
  if (changes.length === 0) return { changed: false };
  const only = changes.length === 1 ? changes[0]! : undefined;
  if (only && typeof only.from === "string" && typeof only.to === "string")
    return { changed: true, kind: "text", path: only.path, parts: diffText(only.from, only.to, budget) };
  return {
    changed: true,
    kind: "json",
    changes: changes.slice(0, MAX_PATH_CHANGES),
    truncated: changes.length > MAX_PATH_CHANGES,
  };
}

function figure(from: number | null | undefined, to: number | null | undefined): FigureChange {
  const a = from ?? null;
  const b = to ?? null;
  return { from: a, to: b, delta: (b ?? 0) - (a ?? 0) };
}

function blockDiff(from: ApiSpan | undefined, to: ApiSpan | undefined, budget: DiffBudget): BlockRunDiff {
  const named = (to ?? from)!;
  const status = { from: from?.status ?? null, to: to?.status ?? null, changed: from?.status !== to?.status };
  const output = from && to ? diffOutput(from.output, to.output, budget) : { changed: false as const };
  const tokens = figure(from?.tokens?.total, to?.tokens?.total);
  const cost = figure(from?.cost?.total, to?.cost?.total);
  const presence = !from ? "added" : !to ? "removed" : undefined;
  const changed = status.changed || output.changed || tokens.delta !== 0 || cost.delta !== 0;
  return {
    blockId: named.blockId,
    blockName: named.blockName,
    blockType: named.blockType,
    iteration: named.iteration && named.iteration.length > 0 ? named.iteration : null,
    change: presence ?? (changed ? "changed" : "same"),
    status,
    output,
    tokens,
    cost,
    durationMs: figure(from?.durationMs, to?.durationMs),
  };
}

/** 0 for the most telling kind of change: a status that differs, a block in one run only, an output that differs, then the rest. */
function rank(block: BlockRunDiff): number {
  if (block.change === "added" || block.change === "removed") return 1;
  if (block.status.changed) return 0;
  if (block.output.changed) return 2;
  return block.change === "changed" ? 3 : 4;
}

/** Largest change first: by kind of change, then the largest cost, token and duration differences. */
function byLargestChange(a: BlockRunDiff, b: BlockRunDiff): number {
  return (
    rank(a) - rank(b) ||
    Math.abs(b.cost.delta) - Math.abs(a.cost.delta) ||
    Math.abs(b.tokens.delta) - Math.abs(a.tokens.delta) ||
    Math.abs(b.durationMs.delta) - Math.abs(a.durationMs.delta)
  );
}

/** Two runs of one workflow compared block by block (matched by block id and iteration). The caller checks they share a workflow. */
export function diffRuns(run: ApiRun, other: ApiRun): RunDiff {
  const from = blockSpans(run);
  const to = blockSpans(other);
  // One allowance of diff table cells for the whole comparison: past it, changed texts are shown whole.
  const budget = new DiffBudget();
  const blocks = [...new Set([...from.keys(), ...to.keys()])]
    .map((key) => blockDiff(from.get(key), to.get(key), budget))
    .sort(byLargestChange);
  return {
    runId: run.id,
    otherRunId: other.id,
    workflowId: run.workflowId,
    blocks,
    changedBlocks: blocks.filter((block) => rank(block) <= 2).length,
    totals: {
      status: { from: run.status, to: other.status },
      tokens: { from: run.tokens, to: other.tokens },
      cost: figure(run.cost?.total, other.cost?.total),
      durationMs: figure(run.durationMs, other.durationMs),
    },
  };
}

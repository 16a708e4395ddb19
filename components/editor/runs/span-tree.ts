import type { ApiSpan } from "@/contract";

/**
 * The trace as a tree: the run, its blocks, their model and tool calls, and the blocks inside a
 * loop or parallel container grouped under one row per iteration (from the spans' `iteration`).
 */
export interface TraceRow {
  id: string;
  kind: "run" | "iteration" | ApiSpan["kind"];
  label: string;
  depth: number;
  span: ApiSpan | null;
  startedAt: string | null;
  endedAt: string | null;
  status: string;
  hasChildren: boolean;
}

interface TreeNode {
  row: Omit<TraceRow, "depth" | "hasChildren">;
  children: TreeNode[];
}

/**
 * Start order. Spans are stamped to the millisecond, so a block and the one it fed often share a
 * start (Start ends and Router begins in the same millisecond): the one that ended first ran first,
 * a span still running goes after those that ended, and spans alike in both keep the order given
 * (Array.prototype.sort is stable). Ids are random and say nothing about order.
 */
function byStart(a: ApiSpan, b: ApiSpan): number {
  const started = Date.parse(a.startedAt) - Date.parse(b.startedAt);
  if (started !== 0) return started;
  const aEnd = a.endedAt ? Date.parse(a.endedAt) : Number.POSITIVE_INFINITY;
  const bEnd = b.endedAt ? Date.parse(b.endedAt) : Number.POSITIVE_INFINITY;
  return aEnd === bEnd ? 0 : aEnd < bEnd ? -1 : 1;
}

function spanLabel(span: ApiSpan): string {
  if (span.kind === "model") return span.model ?? span.name ?? "model call";
  if (span.kind === "tool") return span.name ?? "tool call";
  return span.blockName;
}

function latest(values: Array<string | null>): string | null {
  return values.reduce<string | null>(
    (max, value) => (value !== null && (max === null || value > max) ? value : max),
    null,
  );
}

function nodeOf(span: ApiSpan, childrenOf: Map<string, ApiSpan[]>): TreeNode {
  const row = {
    id: span.id,
    kind: span.kind,
    label: spanLabel(span),
    span,
    startedAt: span.startedAt,
    endedAt: span.endedAt ?? null,
    status: span.status,
  };
  const children = (childrenOf.get(span.id) ?? []).sort(byStart);
  const isContainer = span.kind === "block" && (span.blockType === "loop" || span.blockType === "parallel");
  if (!isContainer) return { row, children: children.map((child) => nodeOf(child, childrenOf)) };
  const level = span.iteration?.length ?? 0;
  const groups = new Map<number, ApiSpan[]>();
  const loose: ApiSpan[] = [];
  for (const child of children) {
    const index = child.iteration?.[level];
    if (child.kind === "block" && index !== undefined) groups.set(index, [...(groups.get(index) ?? []), child]);
    else loose.push(child);
  }
  const word = span.blockType === "loop" ? "Iteration" : "Branch";
  const iterationNodes = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, members]): TreeNode => {
      const nodes = members.map((member) => nodeOf(member, childrenOf));
      const failed = members.some((member) => member.status === "failed");
      const running = members.some((member) => member.status === "running");
      return {
        row: {
          id: `${span.id}:${index}`,
          kind: "iteration",
          label: `${word} ${index}`,
          span: null,
          startedAt: members[0]?.startedAt ?? null,
          endedAt: running ? null : latest(members.map((member) => member.endedAt ?? null)),
          status: failed ? "failed" : running ? "running" : "succeeded",
        },
        children: nodes,
      };
    });
  return { row, children: [...loose.map((child) => nodeOf(child, childrenOf)), ...iterationNodes] };
}

export interface TraceRunFacts {
  id: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
}

/** The tree flattened in display order, leaving out the rows under collapsed ones. */
export function traceRows(
  run: TraceRunFacts,
  spans: readonly ApiSpan[],
  collapsed: ReadonlySet<string> = new Set(),
): TraceRow[] {
  const ids = new Set(spans.map((span) => span.id));
  const childrenOf = new Map<string, ApiSpan[]>();
  const roots: ApiSpan[] = [];
  for (const span of spans) {
    if (span.parentId && ids.has(span.parentId))
      childrenOf.set(span.parentId, [...(childrenOf.get(span.parentId) ?? []), span]);
    else roots.push(span);
  }
  const root: TreeNode = {
    row: {
      id: run.id,
      kind: "run",
      label: "Run",
      span: null,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      status: run.status,
    },
    children: roots.sort(byStart).map((span) => nodeOf(span, childrenOf)),
  };
  const rows: TraceRow[] = [];
  const walk = (node: TreeNode, depth: number) => {
    rows.push({ ...node.row, depth, hasChildren: node.children.length > 0 });
    if (collapsed.has(node.row.id)) return;
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return rows;
}

/** Where a row's bar sits on the waterfall, as fractions of the run's time span (0 to 1). */
export function barPosition(
  row: Pick<TraceRow, "startedAt" | "endedAt">,
  runStart: number,
  runEnd: number,
): { left: number; width: number } | null {
  if (!row.startedAt) return null;
  const total = Math.max(1, runEnd - runStart);
  const start = Math.min(Math.max(Date.parse(row.startedAt) - runStart, 0), total);
  const end = Math.min(Math.max((row.endedAt ? Date.parse(row.endedAt) : runEnd) - runStart, start), total);
  return { left: start / total, width: (end - start) / total };
}

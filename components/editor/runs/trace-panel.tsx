"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { spanWorkers } from "./durable-run";
import { formatDuration } from "@/components/ui/format";
import { isLive, useEditorStore } from "@/components/editor/store";
import { api } from "@/contract";
import { SimulatedBadge } from "./simulation-badges";
import { SpanDetails } from "./span-details";
import { barPosition, traceRows, type TraceRow } from "./span-tree";
import { PriceOverrideMark } from "@/components/prices/price-mark";
import { RunOverheadLine } from "./run-overhead-line";

const BAR_COLOURS: Record<TraceRow["kind"], string> = {
  run: "bg-indigo-400",
  iteration: "bg-violet-300",
  block: "bg-sky-500",
  model: "bg-emerald-500",
  tool: "bg-amber-500",
};

function rowDuration(row: TraceRow): string {
  if (!row.startedAt) return "";
  if (!row.endedAt) return "running";
  return formatDuration(Date.parse(row.endedAt) - Date.parse(row.startedAt));
}

const STORED_AS_GOING_ON: ReadonlySet<string> = new Set(["queued", "running"]);

/** The followed run's spans as a tree beside a waterfall; the selected span's details on the right. */
export function TracePanel() {
  const runId = useEditorStore((state) => state.run.view.runId);
  const live = useEditorStore((state) => isLive(state.run.view));
  const selectedId = useEditorStore((state) => state.run.selectedSpanId);
  const selectSpan = useEditorStore((state) => state.selectSpan);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const run = useQuery({
    queryKey: ["run", runId],
    queryFn: () => api.runs.get(runId!),
    enabled: runId !== null,
    // The stream reports a run's end before its stored row may say so (rows are written in batches): while the row still
    // says running or queued, read it again even after the stream has ended.
    refetchInterval: (query) => (live || STORED_AS_GOING_ON.has(query.state.data?.status ?? "") ? 1_000 : false),
  });
  const rows = useMemo(() => (run.data ? traceRows(run.data, run.data.spans, collapsed) : []), [run.data, collapsed]);
  if (!runId) return <p className="p-3 text-sm text-slate-500">No run to trace yet.</p>;
  if (run.isError) return <p className="p-3 text-sm text-red-700">Could not load the trace: {run.error.message}</p>;
  if (!run.data) return <p className="p-3 text-sm text-slate-500">Loading the trace…</p>;

  const runStart = Date.parse(run.data.startedAt);
  const ends = [run.data.endedAt, ...run.data.spans.map((span) => span.endedAt ?? null)]
    .filter((value): value is string => Boolean(value))
    .map(Date.parse);
  const runEnd = run.data.endedAt ? Date.parse(run.data.endedAt) : Math.max(run.dataUpdatedAt, ...ends);
  const selected = run.data.spans.find((span) => span.id === selectedId) ?? null;
  // A run taken over by another process: each block says where it ran.
  const workers = spanWorkers(run.data.spans);
  const severalProcesses = workers.length > 1;
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="flex h-full min-h-0" data-testid="trace-panel" data-run-id={runId}>
      <div className="min-w-0 flex-[3] overflow-auto border-r border-slate-200" role="tree" aria-label="Spans">
        <div className="sticky top-0 flex bg-white text-[10px] uppercase tracking-wide text-slate-400">
          <span className="w-2/5 px-2 py-1">
            Span
            {severalProcesses && (
              <span
                className="normal-case tracking-normal"
                title={`Ran on ${workers.join(", ")}`}
                data-testid="trace-processes"
              >
                {" "}
                · ran on {workers.length} processes
              </span>
            )}
          </span>
          <span className="flex-1 px-2 py-1">0 – {formatDuration(runEnd - runStart)}</span>
        </div>
        <RunOverheadLine overhead={run.data.overhead} />
        {rows.map((row) => {
          const bar = barPosition(row, runStart, runEnd);
          const isSelected = row.span ? row.span.id === selectedId : row.kind === "run" && selectedId === null;
          return (
            <div
              key={row.id}
              role="treeitem"
              aria-selected={isSelected}
              aria-expanded={row.hasChildren ? !collapsed.has(row.id) : undefined}
              data-testid={`trace-row-${row.id}`}
              data-kind={row.kind}
              data-status={row.status}
              className={`flex cursor-pointer items-center text-xs hover:bg-slate-50 ${isSelected ? "bg-indigo-50" : ""}`}
              onClick={() =>
                row.span ? selectSpan(row.span.id) : row.kind === "run" ? selectSpan(null) : toggle(row.id)
              }
            >
              <div
                className="flex w-2/5 min-w-0 items-center gap-1 px-1 py-0.5"
                style={{ paddingLeft: 4 + row.depth * 14 }}
              >
                {row.hasChildren ? (
                  <button
                    type="button"
                    className="text-slate-400"
                    aria-label={collapsed.has(row.id) ? "Expand" : "Collapse"}
                    onClick={(event) => {
                      event.stopPropagation();
                      toggle(row.id);
                    }}
                  >
                    {collapsed.has(row.id) ? <ChevronRight className="h-3 w-3" /> : <ChevronDown className="h-3 w-3" />}
                  </button>
                ) : (
                  <span className="w-3" />
                )}
                <span
                  className={`truncate ${row.status === "failed" ? "text-red-700" : row.status === "cancelled" ? "text-orange-700" : ""}`}
                >
                  {row.label}
                </span>
                <SimulatedBadge source={row.span?.simulated} testId={`trace-simulated-${row.id}`} />
                <PriceOverrideMark price={row.span?.price} testId={`trace-price-override-${row.id}`} />
                {severalProcesses && row.kind === "block" && row.span?.worker ? (
                  <span
                    className="ml-auto min-w-0 max-w-[50%] shrink truncate pl-1 text-[10px] text-slate-400"
                    title={`Process: ${row.span.worker}`}
                    data-testid={`trace-worker-${row.id}`}
                  >
                    <span className="sr-only">Process: </span>
                    {row.span.worker}
                  </span>
                ) : (
                  <span className="ml-auto shrink-0 pl-1 text-[10px] text-slate-400">
                    {row.kind === "block" || row.kind === "run" || row.kind === "iteration" ? "" : row.kind}
                  </span>
                )}
              </div>
              <div className="relative h-4 flex-1 px-2">
                {bar && (
                  <div
                    className={`absolute top-1 h-2.5 rounded-sm ${BAR_COLOURS[row.kind]} ${row.status === "failed" ? "bg-red-500" : row.status === "cancelled" ? "bg-orange-400" : ""}`}
                    style={{ left: `${bar.left * 100}%`, width: `max(2px, ${bar.width * 100}%)` }}
                    data-testid={`trace-bar-${row.id}`}
                    title={rowDuration(row)}
                  />
                )}
              </div>
              <span className="w-16 shrink-0 pr-2 text-right text-[10px] text-slate-500">{rowDuration(row)}</span>
            </div>
          );
        })}
      </div>
      <div className="min-w-0 flex-[2]">
        <SpanDetails span={selected} run={run.data} />
      </div>
    </div>
  );
}

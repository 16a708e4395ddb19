"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { isLive, useEditorStore } from "@/components/editor/store";
import { LoadMoreButton } from "@/components/ui/load-more-button";
import { formatCost, formatDuration, formatTokens } from "@/components/ui/format";
import { RUN_STATUSES, RUN_TRIGGER_KINDS, api, type RunStatus, type RunTriggerKind } from "@/contract";
import { RunStatusBadge } from "@/components/ui/run-badges";
import { RunDiffView } from "./run-diff-view";
import { runHref } from "@/components/ui/run-href";
import { formatDateTime } from "@/components/ui/date-time";

/**
 * This workflow's runs, newest first, a page at a time ("Load more" for older ones); opening one
 * goes to its page, the graph it ran with its states and trace (the run the editor follows live,
 * or the past run whose page this is, just shows its trace). Polling refreshes every page shown, each from
 * the cursor the page before it now answers, so new runs push older ones down without gaps.
 * Ticking two runs and "Compare" shows what differs between them, block by block.
 */
export function RunHistory() {
  const workflowId = useEditorStore((state) => state.workflowId);
  const router = useRouter();
  const followedId = useEditorStore((state) => state.run.view.runId);
  const followedHere = useEditorStore((state) => state.pastRun !== null || isLive(state.run.view));
  const showTab = useEditorStore((state) => state.showRunTab);
  const [status, setStatus] = useState<RunStatus | "">("");
  const [trigger, setTrigger] = useState<RunTriggerKind | "">("");
  const [selected, setSelected] = useState<string[]>([]);
  const [comparing, setComparing] = useState<{ from: string; to: string } | null>(null);
  const runs = useInfiniteQuery({
    queryKey: ["runs", workflowId, status, trigger],
    queryFn: ({ pageParam }) =>
      api.runs.page(workflowId, {
        status: status ? [status] : [],
        trigger: trigger ? [trigger] : [],
        cursor: pageParam,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.runs),
    refetchInterval: 5_000,
  });
  if (comparing)
    return <RunDiffView runId={comparing.from} otherId={comparing.to} onClose={() => setComparing(null)} />;
  const toggle = (runId: string) =>
    setSelected((current) =>
      current.includes(runId) ? current.filter((id) => id !== runId) : [...current, runId].slice(-2),
    );
  const compare = () => {
    // The list is newest first: the diff reads from the older run to the newer one.
    const order = (id: string) => runs.data?.findIndex((run) => run.id === id) ?? 0;
    const [newer, older] = [...selected].sort((a, b) => order(a) - order(b));
    if (newer && older) setComparing({ from: older, to: newer });
  };
  return (
    <div className="flex h-full flex-col" data-testid="run-history">
      <div className="flex items-center gap-2 border-b border-slate-100 px-2 py-1 text-xs">
        <FilterSelect name="status" label="Status" values={RUN_STATUSES} value={status} onChange={setStatus} />
        <FilterSelect name="trigger" label="Trigger" values={RUN_TRIGGER_KINDS} value={trigger} onChange={setTrigger} />
        {runs.isFetching && !runs.isFetchingNextPage && <span className="text-slate-400">refreshing…</span>}
        <button
          type="button"
          className="btn-secondary ml-auto px-2 py-0.5 text-xs"
          disabled={selected.length !== 2}
          title={selected.length === 2 ? "Compare the two ticked runs block by block" : "Tick two runs to compare them"}
          data-testid="history-compare"
          onClick={compare}
        >
          Compare{selected.length > 0 ? ` (${selected.length}/2)` : ""}
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        {runs.isError && <p className="p-2 text-sm text-red-700">Could not list runs: {runs.error.message}</p>}
        {runs.data?.length === 0 && (
          <p className="p-2 text-sm text-slate-500">
            No {[status, trigger && `${trigger}-started`].filter(Boolean).join(" ")} runs yet.
          </p>
        )}
        <table className="w-full text-xs">
          <tbody>
            {runs.data?.map((run) => (
              <tr
                key={run.id}
                data-testid="history-row"
                data-run-id={run.id}
                data-status={run.status}
                className={`cursor-pointer border-b border-slate-50 hover:bg-slate-50 ${run.id === followedId ? "bg-indigo-50" : ""}`}
                onClick={() => {
                  if (run.id === followedId && followedHere) showTab("trace");
                  else router.push(runHref(workflowId, run.id));
                }}
              >
                <td className="w-6 px-2 py-1" onClick={(event) => event.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={`Select run ${run.id.slice(-8)} to compare`}
                    data-testid="history-select"
                    checked={selected.includes(run.id)}
                    onChange={() => toggle(run.id)}
                  />
                </td>
                <td className="px-2 py-1">
                  <RunStatusBadge status={run.status} testId="history-status" />
                </td>
                <td className="px-2 py-1 text-slate-600">
                  {/* The run's permalink (open in a new tab, copy); a plain click on the row does the same. */}
                  <Link
                    href={runHref(workflowId, run.id)}
                    className="hover:underline"
                    data-testid="history-permalink"
                    onClick={(event) => event.stopPropagation()}
                  >
                    {formatDateTime(run.startedAt)}
                  </Link>
                </td>
                <td
                  className="px-2 py-1 text-slate-600"
                  data-testid="history-trigger"
                  title={run.deploymentId ? `deployment ${run.deploymentId}` : "the draft"}
                >
                  {run.trigger.kind}
                  {run.deploymentId ? "" : " · draft"}
                  {run.test && (
                    <span
                      className="ml-1 rounded bg-teal-50 px-1 text-teal-800"
                      title="A test run: side effects were simulated"
                      data-testid="history-test"
                    >
                      test
                    </span>
                  )}
                  {run.rerunOf && (
                    <span
                      className="ml-1 rounded bg-indigo-50 px-1 text-indigo-700"
                      title={`Re-run of run ${run.rerunOf.runId}`}
                      data-testid="history-rerun"
                    >
                      re-run
                    </span>
                  )}
                </td>
                <td className="px-2 py-1" data-testid="history-duration">
                  {run.durationMs === null ? "—" : formatDuration(run.durationMs)}
                </td>
                <td className="px-2 py-1" data-testid="history-tokens">
                  {formatTokens(run.tokens.total, run.estimated)}
                </td>
                <td className="px-2 py-1" data-testid="history-cost">
                  {formatCost(run)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="p-2 text-xs">
          <LoadMoreButton pages={runs} label="Load older runs" testId="history-load-more" />
        </div>
      </div>
    </div>
  );
}

/** A filter of the run list: "all", or one of `values`. */
function FilterSelect<Value extends string>({
  name,
  label,
  values,
  value,
  onChange,
}: {
  name: string;
  label: string;
  values: readonly Value[];
  value: Value | "";
  onChange: (value: Value | "") => void;
}) {
  const id = `run-${name}-filter`;
  return (
    <>
      <label htmlFor={id} className="text-slate-500">
        {label}
      </label>
      <select
        id={id}
        data-testid={id}
        className="rounded border border-slate-300 px-1 py-0.5"
        value={value}
        onChange={(event) => onChange(event.target.value as Value | "")}
      >
        <option value="">all</option>
        {values.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </>
  );
}

"use client";

import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEditorStore } from "@/components/editor/store";
import { LoadMoreButton } from "@/components/ui/load-more-button";
import { formatCost, formatDuration, formatTokens } from "./format";
import { RUN_STATUSES, RUN_TRIGGER_KINDS, api, type RunStatus, type RunTriggerKind } from "@/contract";
import { RunStatusBadge } from "./run-badges";

/**
 * This workflow's runs, newest first, a page at a time ("Load more" for older ones); opening one
 * replays it onto the canvas and shows its trace. Polling refreshes every page shown, each from
 * the cursor the page before it now answers, so new runs push older ones down without gaps.
 */
export function RunHistory() {
  const workflowId = useEditorStore((state) => state.workflowId);
  const followedId = useEditorStore((state) => state.run.view.runId);
  const follow = useEditorStore((state) => state.followRun);
  const showTab = useEditorStore((state) => state.showRunTab);
  const [status, setStatus] = useState<RunStatus | "">("");
  const [trigger, setTrigger] = useState<RunTriggerKind | "">("");
  const runs = useInfiniteQuery({
    queryKey: ["runs", workflowId, status, trigger],
    queryFn: ({ pageParam }) => api.runs.page(workflowId, { status: status ? [status] : [], trigger: trigger ? [trigger] : [], cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.runs),
    refetchInterval: 5_000,
  });
  return (
    <div className="flex h-full flex-col" data-testid="run-history">
      <div className="flex items-center gap-2 border-b border-slate-100 px-2 py-1 text-xs">
        <label htmlFor="run-status-filter" className="text-slate-500">
          Status
        </label>
        <select
          id="run-status-filter"
          data-testid="run-status-filter"
          className="rounded border border-slate-300 px-1 py-0.5"
          value={status}
          onChange={(event) => setStatus(event.target.value as RunStatus | "")}
        >
          <option value="">all</option>
          {RUN_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <label htmlFor="run-trigger-filter" className="ml-2 text-slate-500">
          Trigger
        </label>
        <select
          id="run-trigger-filter"
          data-testid="run-trigger-filter"
          className="rounded border border-slate-300 px-1 py-0.5"
          value={trigger}
          onChange={(event) => setTrigger(event.target.value as RunTriggerKind | "")}
        >
          <option value="">all</option>
          {RUN_TRIGGER_KINDS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        {runs.isFetching && !runs.isFetchingNextPage && <span className="text-slate-400">refreshing…</span>}
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        {runs.isError && <p className="p-2 text-sm text-red-700">Could not list runs: {runs.error.message}</p>}
        {runs.data?.length === 0 && (
          <p className="p-2 text-sm text-slate-500">No {[status, trigger && `${trigger}-started`].filter(Boolean).join(" ")} runs yet.</p>
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
                  follow(run.id);
                  showTab("trace");
                }}
              >
                <td className="px-2 py-1">
                  <RunStatusBadge status={run.status} testId="history-status" />
                </td>
                <td className="px-2 py-1 text-slate-600">{new Date(run.startedAt).toLocaleString("en-GB")}</td>
                <td
                  className="px-2 py-1 text-slate-600"
                  data-testid="history-trigger"
                  title={run.deploymentId ? `deployment ${run.deploymentId}` : "the draft"}
                >
                  {run.trigger.kind}
                  {run.deploymentId ? "" : " · draft"}
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

"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useEditorStore, type PastRun } from "@/components/editor/store";
import { formatDateTime } from "@/components/ui/date-time";
import { api } from "@/contract";
import { RunStatusBadge } from "@/components/ui/run-badges";
import { pastRunVersionText } from "./past-run-version";
import { workflowHref } from "@/components/ui/run-href";

/**
 * Above a past run's graph: when it ran, how it ended, which version of the workflow it ran, and
 * the way back to the workflow as it is now. Says so when the graph shown is not the run's own.
 */
export function PastRunBanner({ pastRun }: { pastRun: PastRun }) {
  const workflowId = useEditorStore((state) => state.workflowId);
  const view = useEditorStore((state) => state.run.view);
  const run = useQuery({ queryKey: ["run", pastRun.runId], queryFn: () => api.runs.get(pastRun.runId) });
  const current = useQuery({
    queryKey: ["workflow", workflowId],
    queryFn: () => api.workflows.get(workflowId),
    staleTime: Infinity,
    retry: false,
  });
  // The stream's status once it has replayed anything (it goes on live), the stored one before.
  const status = view.lastSeq > 0 ? view.status : run.data?.status;
  const startedAt = run.data?.startedAt;
  return (
    <div
      role="note"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-950"
      data-testid="past-run-banner"
    >
      <History className="h-4 w-4 shrink-0" aria-hidden />
      <span>
        Run of{" "}
        {startedAt ? (
          <time dateTime={startedAt} className="font-medium" data-testid="past-run-date">
            {formatDateTime(startedAt)}
          </time>
        ) : (
          <span className="text-sky-700">…</span>
        )}
      </span>
      {status && <RunStatusBadge status={status} testId="past-run-status" />}
      <span data-testid="past-run-version">{pastRunVersionText(pastRun, current.data?.version)}</span>
      <Link
        href={workflowHref(workflowId)}
        className="ml-auto font-medium text-indigo-700 underline"
        data-testid="open-current"
      >
        Open current
      </Link>
    </div>
  );
}

import Link from "next/link";
import type { WorkspaceRunSummary } from "@/contract";
import { formatCost, formatDuration, formatTokens } from "@/components/ui/format";
import { RunStatusBadge } from "@/components/ui/run-badges";
import { runHref, workflowHref } from "@/components/ui/run-href";
import { DataCell, DataRow } from "@/components/ui/data-table";
import { formatDateTime } from "@/components/ui/date-time";

/** What started a run, in words: "webhook", "editor · test", "api · replay". */
function triggerText(run: WorkspaceRunSummary): string {
  const marks = [run.test && "test", run.replayOf && "replay", run.rerunOf && "re-run"].filter(Boolean);
  return [run.trigger.kind, ...marks].join(" · ");
}

/** One run in the workspace's list: its time is the run's own link (a permalink), its workflow's name the workflow's. */
export function RunListRow({ run }: { run: WorkspaceRunSummary }) {
  return (
    <DataRow variant="plain" data-testid="run-list-row" data-run-id={run.id} data-status={run.status}>
      <DataCell className="whitespace-nowrap">
        <Link
          href={runHref(run.workflowId, run.id)}
          className="link font-medium"
          data-testid="run-list-open"
          title={`Run ${run.id}`}
        >
          {formatDateTime(run.startedAt)}
        </Link>
      </DataCell>
      <DataCell>
        <Link
          href={workflowHref(run.workflowId)}
          className="text-slate-700 hover:underline"
          data-testid="run-list-workflow"
        >
          {run.workflowName}
        </Link>
      </DataCell>
      <DataCell>
        <RunStatusBadge status={run.status} />
      </DataCell>
      <DataCell className="text-slate-600" data-testid="run-list-trigger">
        {triggerText(run)}
      </DataCell>
      <DataCell className="text-right whitespace-nowrap">
        {run.durationMs === null ? "—" : formatDuration(run.durationMs)}
      </DataCell>
      <DataCell className="text-right whitespace-nowrap">{formatTokens(run.tokens.total, run.estimated)}</DataCell>
      <DataCell className="text-right whitespace-nowrap">{formatCost(run)}</DataCell>
    </DataRow>
  );
}

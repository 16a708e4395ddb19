import Link from "next/link";
import type { WorkspaceRunSummary } from "@/contract";
import { formatCost, formatDuration, formatTokens, runHref, RunStatusBadge } from "@/components/runs";
import { formatDateTime } from "@/components/ui/date-time";

/** What started a run, in words: "webhook", "editor · test", "api · replay". */
function triggerText(run: WorkspaceRunSummary): string {
  const marks = [run.test && "test", run.replayOf && "replay", run.rerunOf && "re-run"].filter(Boolean);
  return [run.trigger.kind, ...marks].join(" · ");
}

/** One run in the workspace's list; the workflow's name opens the run in the editor. */
export function RunListRow({ run }: { run: WorkspaceRunSummary }) {
  return (
    <tr className="border-t border-slate-100 hover:bg-slate-50" data-testid="run-list-row" data-run-id={run.id} data-status={run.status}>
      <td className="px-3 py-2 whitespace-nowrap text-slate-600">{formatDateTime(run.startedAt)}</td>
      <td className="px-3 py-2">
        <Link href={runHref(run.workflowId, run.id)} className="link font-medium" data-testid="run-list-open">
          {run.workflowName}
        </Link>
      </td>
      <td className="px-3 py-2">
        <RunStatusBadge status={run.status} />
      </td>
      <td className="px-3 py-2 text-slate-600" data-testid="run-list-trigger">
        {triggerText(run)}
      </td>
      <td className="px-3 py-2 text-right whitespace-nowrap">{run.durationMs === null ? "—" : formatDuration(run.durationMs)}</td>
      <td className="px-3 py-2 text-right whitespace-nowrap">{formatTokens(run.tokens.total, run.estimated)}</td>
      <td className="px-3 py-2 text-right whitespace-nowrap">{formatCost(run)}</td>
    </tr>
  );
}

import type { RunStatus } from "@/contract";
import { queueDescription, queueLabel, resumedDescription } from "./run-status-text";

/** A run's status as the pages show it: the API's, or `idle` in an editor before any run. */
type ShownRunStatus = RunStatus | "idle";

/** Colours of run states, the same in the toolbar, the history and the Runs page. */
const RUN_STATUS_STYLES: Record<ShownRunStatus, string> = {
  idle: "bg-slate-100 text-slate-600",
  queued: "bg-slate-100 text-slate-600",
  running: "bg-sky-100 text-sky-800",
  paused: "bg-amber-100 text-amber-800",
  succeeded: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
  cancelled: "bg-orange-100 text-orange-800",
};

/** A run another process took over after its own stopped (beside its status, not instead of it). */
const RESUMED_STYLE = "bg-violet-100 text-violet-800";

/**
 * A run's status as a coloured label, the same in the toolbar and the history. With `inLine`
 * (the toolbar, which asks for it while the run waits) a queued run says its place in line.
 */
export function RunStatusBadge({
  status,
  inLine,
  testId,
}: {
  status: ShownRunStatus;
  inLine?: { position?: number };
  testId?: string;
}) {
  const queued = status === "queued";
  return (
    <span
      className={`rounded px-1.5 py-0.5 font-medium ${RUN_STATUS_STYLES[status]}`}
      data-testid={testId}
      data-status={status}
      data-queue-position={queued ? inLine?.position : undefined}
      title={queued ? queueDescription(inLine?.position) : undefined}
    >
      {queued && inLine ? queueLabel(inLine.position) : status}
    </span>
  );
}

/** "Resumed": another process went on with the run from its finished blocks after its own stopped. */
export function ResumedBadge({ recoveries, testId }: { recoveries: number; testId?: string }) {
  if (recoveries < 1) return null;
  const description = resumedDescription(recoveries);
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${RESUMED_STYLE}`}
      title={description}
      data-testid={testId}
      data-recoveries={recoveries}
    >
      Resumed
      {recoveries > 1 && <span aria-hidden> ×{recoveries}</span>}
      <span className="sr-only">: {description}</span>
    </span>
  );
}

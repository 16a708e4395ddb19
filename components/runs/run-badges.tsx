import type { RunViewStatus } from "@/components/editor/store";
import { queueDescription, queueLabel, resumedDescription } from "./durable-run";
import { RESUMED_STYLE, RUN_STATUS_STYLES } from "./status-styles";

/**
 * A run's status as a coloured label, the same in the toolbar and the history. With `inLine`
 * (the toolbar, which asks for it while the run waits) a queued run says its place in line.
 */
export function RunStatusBadge({ status, inLine, testId }: { status: RunViewStatus; inLine?: { position?: number }; testId?: string }) {
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
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${RESUMED_STYLE}`} title={description} data-testid={testId} data-recoveries={recoveries}>
      Resumed
      {recoveries > 1 && <span aria-hidden> ×{recoveries}</span>}
      <span className="sr-only">: {description}</span>
    </span>
  );
}

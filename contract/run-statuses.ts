/** A run's statuses (docs/CONTRACT.md section 5). */

export const RUN_STATUSES = ["queued", "running", "paused", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const LIVE_RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused"];
export const ENDED_RUN_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

export function isRunStatus(value: string): value is RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(value);
}

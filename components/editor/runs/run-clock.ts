import type { RunView } from "@/components/editor/store";
import { ENDED_RUN_STATUSES, type ApiRun } from "@/contract";
import { queueDescription } from "@/components/ui/run-status-text";
import { QUEUE_POLL_MS } from "./durable-run";

/**
 * The toolbar's clock for the followed run, and why a run that has not started yet waits. Pure, so
 * the components only render what these decide. The view comes from the run's events; `stored` is
 * the run as GET /api/runs/:id last answered (undefined until it has).
 */

export type StoredRunFacts = Pick<ApiRun, "status" | "durationMs" | "queuedAt">;
export type RunClockView = Pick<RunView, "status" | "ended" | "startedAt" | "durationMs" | "followedAt">;

/** `waiting`: not started yet, counting since it was queued; `running`: since it started; `ended`: its duration. */
export interface RunClock {
  phase: "waiting" | "running" | "ended";
  ms: number;
}

const isEnded = (status: string) => (ENDED_RUN_STATUSES as readonly string[]).includes(status);

/**
 * What the clock shows at `now` (ms since the epoch), or null when there is nothing honest to show.
 * An ended run shows its duration: the one `run.completed` carries, else the stored one (a failed or
 * cancelled run's final event carries none).
 */
export function runClock(view: RunClockView, stored: StoredRunFacts | undefined, now: number): RunClock | null {
  if (view.status === "idle") return null;
  if (view.ended) {
    const ms = view.durationMs ?? (stored && isEnded(stored.status) ? stored.durationMs : null);
    return ms === null || ms === undefined ? null : { phase: "ended", ms };
  }
  if (view.startedAt) return { phase: "running", ms: Math.max(0, now - Date.parse(view.startedAt)) };
  const since = stored ? Date.parse(stored.queuedAt) : view.followedAt;
  return since === undefined ? null : { phase: "waiting", ms: Math.max(0, now - since) };
}

/**
 * Why a run that has not started yet waits, in words: the server has not answered about it yet (the
 * first request after a server starts can take a while), it waits in the queue for a process, or a
 * process took it and its first events are on their way. Null once it has started or ended.
 */
export function waitReason(
  view: Pick<RunView, "status" | "ended" | "startedAt">,
  stored: Pick<ApiRun, "status"> | undefined,
  position: number | undefined,
): string | null {
  if (view.ended || view.startedAt || view.status === "idle") return null;
  if (!stored) return "Waiting for the server to answer; the first run after the server starts can take a while.";
  if (stored.status === "queued") return queueDescription(position);
  if (isEnded(stored.status)) return null;
  return "A process has taken the run; waiting for its first events.";
}

/**
 * How often to read the stored run again once its stream has ended: the stream reports the end
 * before the stored row may say so (rows are written in batches), and the toolbar wants the stored
 * duration of a run whose final event carries none.
 */
export function endedRunPollInterval(
  view: Pick<RunView, "ended">,
  stored: Pick<ApiRun, "status"> | undefined,
): number | false {
  return view.ended && stored !== undefined && !isEnded(stored.status) ? QUEUE_POLL_MS : false;
}

import type { RunViewStatus } from "@/components/editor/store";
import type { ApiRun, ApiSpan } from "@/contract";

/**
 * What the editor says of a durable run (docs/CONTRACT.md section 11): its place in the queue
 * while it waits for a worker, the times another process took it over, and which processes
 * executed its spans. Pure, so the components only render what these decide.
 */

/** How often a queued run's place in line is asked for while it waits. */
export const QUEUE_POLL_MS = 1_000;

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`, `1,002nd`. */
export function ordinal(n: number): string {
  const tens = Math.abs(n) % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][Math.abs(n) % 10] ?? "th");
  return `${n.toLocaleString("en-US")}${suffix}`;
}

/** "Queued, 3rd in line", or "Queued" while the position is not known. */
export function queueLabel(position: number | undefined): string {
  return position === undefined ? "Queued" : `Queued, ${ordinal(position)} in line`;
}

/** The longer sentence for a tooltip or a screen reader. */
export function queueDescription(position: number | undefined): string {
  const waiting = "Waiting for a process to take the run";
  if (position === undefined) return `${waiting}.`;
  const ahead = position - 1;
  return ahead === 0
    ? `${waiting}; no run waits ahead of it.`
    : `${waiting}; ${ahead.toLocaleString("en-US")} ${ahead === 1 ? "run waits" : "runs wait"} ahead of it.`;
}

/** What the editor knows of the followed run from its events. */
export interface FollowedRunFacts {
  status: RunViewStatus;
  /** An event of the run has been applied (lastSeq > 0). */
  eventsArrived: boolean;
  ended: boolean;
}

/**
 * How often to ask GET /api/runs/:id for the followed run: every second while it is queued and
 * no event has come (the stream says nothing until a worker takes it), never once `run.started`
 * (or any event) arrives, the view's status moves on, or the API answers a status other than queued.
 */
export function queuePollInterval(view: FollowedRunFacts, record: Pick<ApiRun, "status"> | undefined): number | false {
  if (view.ended || view.eventsArrived || view.status !== "queued") return false;
  if (record && record.status !== "queued") return false;
  return QUEUE_POLL_MS;
}

/**
 * Whether the run waits for a worker: both the view and the API say queued. (A run opened from
 * the history is `queued` in the view too, for the moment before its events are replayed.)
 */
export function waitsInQueue(viewStatus: RunViewStatus, record: Pick<ApiRun, "status"> | undefined): boolean {
  return viewStatus === "queued" && record?.status === "queued";
}

/** The place in line to show: only while the run waits in the queue. */
export function shownQueuePosition(viewStatus: RunViewStatus, record: Pick<ApiRun, "status" | "queuePosition"> | undefined): number | undefined {
  return record && waitsInQueue(viewStatus, record) ? record.queuePosition : undefined;
}

/**
 * Times the run was taken over after its process stopped: the API's count, or the `run.resumed`
 * events seen so far when the API has not caught up (a takeover seen live before the next fetch).
 */
export function recoveryCount(fromEvents: number | undefined, fromApi: number | undefined): number {
  return Math.max(fromEvents ?? 0, fromApi ?? 0);
}

/** The Resumed badge's tooltip. */
export function resumedDescription(recoveries: number): string {
  const sentence = "Its process stopped; another process went on from the finished blocks";
  return recoveries > 1 ? `${sentence} (${recoveries} times).` : `${sentence}.`;
}

/**
 * The distinct processes that executed a run's spans, in the order they first appear. More than
 * one: the run moved between processes, and the trace labels each block with its process.
 */
export function spanWorkers(spans: readonly Pick<ApiSpan, "worker">[]): string[] {
  const workers = new Set<string>();
  for (const span of spans) if (span.worker) workers.add(span.worker);
  return [...workers];
}

import type { RunViewStatus } from "@/components/editor/store";
import type { ApiRun, ApiSpan } from "@/contract";

/**
 * What the editor says of a durable run (docs/CONTRACT.md section 11): its place in the queue
 * while it waits for a worker, the times another process took it over, and which processes
 * executed its spans. Pure, so the components only render what these decide.
 */

/** How often a queued run's place in line is asked for while it waits. */
export const QUEUE_POLL_MS = 1_000;

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
export function shownQueuePosition(
  viewStatus: RunViewStatus,
  record: Pick<ApiRun, "status" | "queuePosition"> | undefined,
): number | undefined {
  return record && waitsInQueue(viewStatus, record) ? record.queuePosition : undefined;
}

/**
 * Times the run was taken over after its process stopped: the API's count, or the `run.resumed`
 * events seen so far when the API has not caught up (a takeover seen live before the next fetch).
 */
export function recoveryCount(fromEvents: number | undefined, fromApi: number | undefined): number {
  return Math.max(fromEvents ?? 0, fromApi ?? 0);
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

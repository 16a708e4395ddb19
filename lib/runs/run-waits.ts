import { isTerminalEvent, type AskAnswer, type PendingAsk, type RunEvent, type RunResumeReason } from "@/contract";
import type { PendingApproval } from "./approvals";

/** An ask answered already, for the 409 that names who answered it and when. */
export interface AnsweredAsk {
  spanId: string;
  answeredBy: string | null;
  answeredAt: string;
  timedOut: boolean;
}

/** What a run waits on, read from its stored events. */
export interface RunWaits {
  /** Tool calls requested and not yet decided. */
  approvals: PendingApproval[];
  /** Asks requested and not yet answered. */
  asks: PendingAsk[];
  /** Asks answered, by span id. */
  answered: Map<string, AnsweredAsk>;
  /**
   * Whether a parked run may go on now: no tool call waits (a waiting call stopped its block), and
   * something was answered or decided since it last paused, or no ask waits. Asks still waiting
   * wait again in the attempt that goes on.
   */
  mayGoOn: boolean;
  /** Why it goes on: the last answer it got. */
  resumeReason: RunResumeReason;
}

function answeredOf(event: { spanId: string } & AskAnswer): AnsweredAsk {
  return { spanId: event.spanId, answeredBy: event.answeredBy, answeredAt: event.answeredAt, timedOut: event.timedOut };
}

/**
 * The waits of a run, read from its stored events: requested and not yet answered. A resumed
 * attempt that asks again about the same call (its model answer replayed) keeps one entry, and an
 * ask keeps its span id across attempts.
 */
export function waitsFromEvents(events: readonly RunEvent[]): RunWaits {
  const approvals = new Map<string, PendingApproval>();
  const asks = new Map<string, PendingAsk>();
  const answered = new Map<string, AnsweredAsk>();
  let answeredSincePause = false;
  let resumeReason: RunResumeReason = "approved";
  for (const event of events) {
    if (event.type === "tool.approval.requested") {
      const { type: _type, ...approval } = event;
      approvals.set(event.toolCallId, approval);
    } else if (event.type === "tool.approval.resolved") {
      approvals.delete(event.toolCallId);
      answeredSincePause = true;
      resumeReason = "approved";
    } else if (event.type === "ask.requested") {
      const { type: _type, ...ask } = event;
      if (!answered.has(event.spanId)) asks.set(event.spanId, ask);
    } else if (event.type === "ask.answered") {
      asks.delete(event.spanId);
      answered.set(event.spanId, answeredOf(event));
      answeredSincePause = true;
      resumeReason = "answered";
    } else if (event.type === "run.paused") answeredSincePause = false;
    else if (isTerminalEvent(event)) {
      approvals.clear();
      asks.clear();
    }
  }
  return {
    approvals: [...approvals.values()],
    asks: [...asks.values()],
    answered,
    mayGoOn: approvals.size === 0 && (asks.size === 0 || answeredSincePause),
    resumeReason,
  };
}

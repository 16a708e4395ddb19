import type { AskAnswer, PendingAsk, RunEvent } from "@/contract";
import { checkpointKey } from "./checkpoint-store";

/** An ask an earlier attempt at the run made: it keeps its span id (its name in the API) and its deadline. */
export interface EarlierAsk {
  spanId: string;
  requestedAt: string;
  timeoutAt?: string;
}

interface Waiting {
  ask: PendingAsk;
  settle(answer: AskAnswer): void;
}

/**
 * The answers desk of one attempt at a run. Asks are keyed by block and iteration
 * (`checkpointKey`), which stay the same across attempts: an ask answered while the run was
 * parked finds its answer here when the resumed attempt reaches it again, and one still
 * unanswered waits again under the span id it had. An answer given while the attempt still runs
 * (another path was busy) reaches the waiting block through `deliver`.
 */
export class RunAnswers {
  private readonly waitingBySpan = new Map<string, Waiting>();

  constructor(
    private readonly earlier: ReadonlyMap<string, EarlierAsk> = new Map(),
    private readonly answers: Map<string, AskAnswer> = new Map(),
  ) {}

  earlierAsk(key: string): EarlierAsk | undefined {
    return this.earlier.get(key);
  }

  answerFor(key: string): AskAnswer | undefined {
    return this.answers.get(key);
  }

  /** The asks waiting in this attempt now. */
  waiting(): PendingAsk[] {
    return [...this.waitingBySpan.values()].map((entry) => entry.ask);
  }

  /** Gives an answer to an ask waiting in this attempt; false when none waits under that span. */
  deliver(spanId: string, answer: AskAnswer): boolean {
    const entry = this.waitingBySpan.get(spanId);
    if (!entry) return false;
    entry.settle(answer);
    return true;
  }

  /**
   * Keeps an answer to an ask this attempt has not reached yet (it goes on after a pause, and the
   * ask is about to wait again): the block takes it when it gets there. The caller records it.
   */
  accept(key: string, answer: AskAnswer): void {
    this.answers.set(key, answer);
  }

  enter(ask: PendingAsk, settle: (answer: AskAnswer) => void): () => void {
    this.waitingBySpan.set(ask.spanId, { ask, settle });
    return () => this.waitingBySpan.delete(ask.spanId);
  }
}

/** The asks and answers a run's stored events hold, by block and iteration, for the attempt that goes on. */
export function answersFromEvents(events: readonly RunEvent[]): RunAnswers {
  const earlier = new Map<string, EarlierAsk>();
  const answers = new Map<string, AskAnswer>();
  for (const event of events) {
    if (event.type === "ask.requested") {
      const key = checkpointKey(event.blockId, event.iteration ?? []);
      earlier.set(key, {
        spanId: event.spanId,
        requestedAt: event.requestedAt,
        ...(event.timeoutAt ? { timeoutAt: event.timeoutAt } : {}),
      });
    } else if (event.type === "ask.answered") {
      const { choice, text, fields, answeredBy, answeredAt, timedOut } = event;
      answers.set(checkpointKey(event.blockId, event.iteration ?? []), {
        choice,
        text,
        fields,
        answeredBy,
        answeredAt,
        timedOut,
      });
    }
  }
  return new RunAnswers(earlier, answers);
}

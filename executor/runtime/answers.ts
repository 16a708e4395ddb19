import type { AskAnswer, PendingAsk, RunEvent } from "@/contract";
import { BlockExecutionError, CancelledError, type AskRequest } from "@/core";
import type { GraphNode } from "../graph";
import type { ExecutionPlace } from "./block-execution";
import { checkpointKey } from "./checkpoints";
import type { BlockSpan } from "./spans";

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
      earlier.set(key, { spanId: event.spanId, requestedAt: event.requestedAt, ...(event.timeoutAt ? { timeoutAt: event.timeoutAt } : {}) });
    } else if (event.type === "ask.answered") {
      const { choice, text, fields, answeredBy, answeredAt, timedOut } = event;
      answers.set(checkpointKey(event.blockId, event.iteration ?? []), { choice, text, fields, answeredBy, answeredAt, timedOut });
    }
  }
  return new RunAnswers(earlier, answers);
}

/** A block's concurrency slot, given back while it waits for a person so other paths can use it. */
export interface HeldSlot {
  held: boolean;
}

/**
 * Waits for a person's answer to an ask block. An answer already given (stored before this
 * attempt) is returned at once; otherwise `ask.requested` is reported (once per ask, whatever the
 * attempts) and the block waits, holding no concurrency slot. Other paths go on meanwhile; when
 * nothing but waiting asks is left, the run parks (RunContext.idle) and this wait ends with the
 * run's halt. A deadline that passes first answers it as timed out.
 */
export async function waitForAnswer(
  place: ExecutionPlace,
  node: GraphNode,
  span: BlockSpan,
  request: AskRequest,
  signal: AbortSignal,
  slot: HeldSlot,
): Promise<AskAnswer> {
  const { run } = place;
  const desk = run.settings.answers;
  const key = checkpointKey(node.id, place.iteration);
  const given = desk?.answerFor(key);
  if (given) return given;
  if (!desk)
    throw new BlockExecutionError(
      `Block '${node.name}' cannot stop to ask a person here: a workflow run by another (as a tool or a Workflow block) cannot stop to wait for an answer; ask in the calling workflow instead, or run this workflow on its own`,
    );
  const earlier = desk.earlierAsk(key);
  const timeoutAt = earlier ? earlier.timeoutAt : request.timeoutMs === undefined ? undefined : run.iso(Date.parse(span.startedAt) + request.timeoutMs);
  const where = { runId: run.settings.runId, blockId: node.id, spanId: span.id, ...(place.iteration.length > 0 ? { iteration: [...place.iteration] } : {}) };
  const answered = (answer: AskAnswer): AskAnswer => {
    run.emit({ type: "ask.answered", ...where, ...answer });
    return answer;
  };
  const timedOut = (): AskAnswer => ({ choice: null, text: null, fields: {}, answeredBy: null, answeredAt: run.iso(run.now()), timedOut: true });
  if (timeoutAt !== undefined && Date.parse(timeoutAt) <= run.now()) return answered(timedOut());
  const { question, choices, allowText, fields } = request;
  const ask: PendingAsk = {
    ...where,
    question,
    choices,
    allowText,
    fields,
    requestedAt: earlier?.requestedAt ?? span.startedAt,
    ...(timeoutAt === undefined ? {} : { timeoutAt }),
  };
  if (!earlier) run.emit({ type: "ask.requested", ...ask });
  if (signal.aborted) throw new CancelledError();
  run.semaphore.release();
  slot.held = false;
  const answer = await new Promise<AskAnswer>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = () => {
      leave();
      run.endWait();
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      end();
      reject(signal.reason instanceof Error ? signal.reason : new CancelledError());
    };
    const leave = desk.enter(ask, (value) => {
      end();
      resolve(value);
    });
    signal.addEventListener("abort", onAbort, { once: true });
    if (timeoutAt !== undefined)
      timer = setTimeout(
        () => {
          end();
          resolve(timedOut());
        },
        Math.max(0, Date.parse(timeoutAt) - run.now()),
      );
    run.beginWait();
  });
  const waiting = run.semaphore.acquire();
  if (waiting) await waiting;
  slot.held = true;
  return answered(answer);
}

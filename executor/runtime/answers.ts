import type { AskAnswer, PendingAsk } from "@/contract";
import { BlockExecutionError, CancelledError, type AskRequest } from "@/core";
import type { GraphNode } from "../graph";
import type { ExecutionPlace } from "./execution-place";
import { checkpointKey } from "./checkpoint-store";
import type { BlockSpan } from "./spans";

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
  const timeoutAt = earlier
    ? earlier.timeoutAt
    : request.timeoutMs === undefined
      ? undefined
      : run.iso(Date.parse(span.startedAt) + request.timeoutMs);
  const where = {
    runId: run.settings.runId,
    blockId: node.id,
    spanId: span.id,
    ...(place.iteration.length > 0 ? { iteration: [...place.iteration] } : {}),
  };
  const answered = (answer: AskAnswer): AskAnswer => {
    run.emit({ type: "ask.answered", ...where, ...answer });
    return answer;
  };
  const timedOut = (): AskAnswer => ({
    choice: null,
    text: null,
    fields: {},
    answeredBy: null,
    answeredAt: run.iso(run.now()),
    timedOut: true,
  });
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

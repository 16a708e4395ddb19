import type { Usage } from "@/contract";
import {
  failureCarrying,
  isTrellisError,
  TimeoutError,
  addUsage,
  emptyUsage,
  type BlockCallArgs,
  type BlockResult,
  type ChildSpan,
  type HandlerContext,
  type PreparedBlockCall,
} from "@/core";
import type { GraphNode } from "../graph";
import { HandlerAttempt, type Attempt } from "./handler-attempt";
import type { RunContext } from "./run-context";

/**
 * Runs a handler under the block's retry policy and time limit.
 *
 * Policy (block fields, see document.ts): `retry: {attempts, backoffMs}` is off when absent; the
 * wait before retry n is `backoffMs * 2^(n-1)`. `timeoutMs` limits each attempt; when it passes,
 * the handler's signal is aborted and the attempt fails with a `timeout` error as soon as the handler
 * stops, or ABORT_GRACE_MS later if it ignores its signal. What failed attempts spent counts.
 * Retried: errors that may pass (timeouts, provider errors marked retryable, plain `block_failed`
 * errors and unknown exceptions). Never retried: cancellation,
 * unresolved references, sandbox limits, refused addresses and other non-retryable coded errors.
 */

export function isRetryable(error: unknown): boolean {
  if (!isTrellisError(error)) return true;
  if (error.code === "cancelled" || error.code === "unresolved_reference") return false;
  return error.retryable || error.code === "block_failed";
}

/** A wait that a run halt cuts short. */
function pause(run: RunContext, ms: number): Promise<void> {
  const controller = new AbortController();
  run.running.add(controller);
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      run.running.delete(controller);
      resolve();
    }, ms);
    controller.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      run.running.delete(controller);
      reject(controller.signal.reason);
    });
    if (run.halt) controller.abort(run.halt.error);
  });
}

function callOnce(
  run: RunContext,
  node: GraphNode,
  call: PreparedBlockCall,
  inputs: BlockCallArgs["inputs"],
  context: Omit<HandlerContext, "signal">,
): Promise<Attempt> {
  const attempt = new HandlerAttempt();
  run.running.add(attempt);
  if (run.halt) attempt.abort(run.halt.error);
  const timeoutMs = node.block.timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => attempt.abort(new TimeoutError(`Block '${node.name}' took longer than its limit of ${timeoutMs} ms`)),
          timeoutMs,
        );
  const startSpan = context.startSpan;
  const attemptContext: HandlerContext = {
    ...context,
    get signal() {
      return attempt.signal;
    },
    startSpan: (options) => stoppable(startSpan(options), attempt),
  };
  let pending: Promise<BlockResult>;
  try {
    pending = call({ inputs, context: attemptContext });
  } catch (error) {
    pending = Promise.reject(error);
  }
  return attempt.follow(pending).then((outcome) => {
    if (timer !== undefined) clearTimeout(timer);
    run.running.delete(attempt);
    return outcome;
  });
}

/**
 * A handler's call span that fails after its block was stopped (cancel, pause, run or block
 * timeout) was cut short, not broken: it ends cancelled. The handler ends it itself, because the
 * engine waits for it to stop (ABORT_GRACE_MS) to keep what it spent.
 */
function stoppable(span: ChildSpan, attempt: HandlerAttempt): ChildSpan {
  return {
    id: span.id,
    child: (options) => stoppable(span.child(options), attempt),
    ...(span.markSimulated ? { markSimulated: span.markSimulated } : {}),
    end: (result) => span.end(result.error && attempt.aborted ? { ...result, cancelled: true } : result),
  };
}

/**
 * The block's final error, carrying what all its attempts spent. A halted run reports the block as
 * interrupted and counts nothing from its error, so the spending is added to the run here; a shared
 * halt error is never changed.
 */
function withSpent(run: RunContext, error: unknown, spent: Usage | undefined): unknown {
  if (!spent) return error;
  if (run.halt) {
    run.addUsage(spent);
    return error;
  }
  return failureCarrying(error, { spent });
}

export interface AttemptsResult {
  result: BlockResult;
  attempts: number;
}

/** Throws the last error, carrying the attempt count on `attempts` when the policy retried. */
export async function runWithPolicy(
  run: RunContext,
  node: GraphNode,
  call: PreparedBlockCall,
  inputs: BlockCallArgs["inputs"],
  context: Omit<HandlerContext, "signal">,
): Promise<AttemptsResult> {
  const policy = node.block.retry;
  const maxAttempts = policy?.attempts ?? 1;
  // What failed attempts spent (a model call, then a failure) is paid for: it counts with the last attempt.
  let spent: Usage | undefined;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await callOnce(run, node, call, inputs, context);
    if (outcome.ok) {
      const { result } = outcome;
      return {
        result: spent ? { ...result, usage: addUsage(spent, result.usage ?? emptyUsage()) } : result,
        attempts: attempt,
      };
    }
    if (outcome.spent) spent = addUsage(spent ?? emptyUsage(), outcome.spent);
    if (run.halt || attempt >= maxAttempts || !isRetryable(outcome.error))
      throw new AttemptsError(withSpent(run, outcome.error, spent), attempt);
    const backoffMs = policy?.backoffMs ?? 0;
    if (backoffMs > 0)
      await pause(run, backoffMs * 2 ** (attempt - 1)).catch((error: unknown) =>
        Promise.reject(withSpent(run, error, spent)),
      );
  }
}

/** The final error of a block's attempts, with how many there were. */
export class AttemptsError extends Error {
  constructor(
    readonly error: unknown,
    readonly attempts: number,
  ) {
    super("attempts failed");
  }
}

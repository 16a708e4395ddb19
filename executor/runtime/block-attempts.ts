import { isTrellisError, TimeoutError } from "../errors";
import type { BlockCallArgs, BlockResult, HandlerContext, PreparedBlockCall } from "../handler";
import type { GraphNode } from "../graph";
import type { RunContext } from "./run-context";

/**
 * Runs a handler under the block's retry policy and time limit.
 *
 * Policy (block fields, see document.ts): `retry: {attempts, backoffMs}` is off when absent; the
 * wait before retry n is `backoffMs * 2^(n-1)`. `timeoutMs` limits each attempt; when it passes,
 * the handler's signal is aborted and the attempt fails with a `timeout` error at once, even if the
 * handler ignores its signal. Retried: errors that may pass (timeouts, provider errors marked
 * retryable, plain `block_failed` errors and unknown exceptions). Never retried: cancellation,
 * unresolved references, sandbox limits, refused addresses and other non-retryable coded errors.
 */

export function isRetryable(error: unknown): boolean {
  if (!isTrellisError(error)) return true;
  if (error.code === "cancelled" || error.code === "unresolved_reference") return false;
  return error.retryable || error.code === "block_failed";
}

/** Settles with the promise, or rejects with the signal's reason as soon as it aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
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
): Promise<BlockResult> {
  const controller = new AbortController();
  run.running.add(controller);
  if (run.halt) controller.abort(run.halt.error);
  const timeoutMs = node.block.timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(new TimeoutError(`Block '${node.name}' took longer than its limit of ${timeoutMs} ms`)), timeoutMs);
  let pending: Promise<BlockResult>;
  try {
    pending = call({ inputs, context: { ...context, signal: controller.signal } });
  } catch (error) {
    pending = Promise.reject(error);
  }
  const settled = raceAbort(pending, controller.signal);
  const cleanup = () => {
    if (timer !== undefined) clearTimeout(timer);
    run.running.delete(controller);
  };
  settled.then(cleanup, cleanup);
  return settled;
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
  for (let attempt = 1; ; attempt += 1) {
    try {
      return { result: await callOnce(run, node, call, inputs, context), attempts: attempt };
    } catch (error) {
      if (run.halt || attempt >= maxAttempts || !isRetryable(error)) throw new AttemptsError(error, attempt);
      const backoffMs = policy?.backoffMs ?? 0;
      if (backoffMs > 0) await pause(run, backoffMs * 2 ** (attempt - 1));
    }
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

import type { Usage } from "@/contract";
import { isTrellisError, type BlockResult } from "@/core";

/** How long an aborted attempt waits for its handler to stop, to keep what it spent (a Workflow block's cancelled child run). */
export const ABORT_GRACE_MS = 3_000;

export type Attempt = { ok: true; result: BlockResult } | { ok: false; error: unknown; spent?: Usage };

/** What a run halt or a block's time limit stops: a handler's attempt, or a wait between attempts. */
export interface Abortable {
  abort(reason: unknown): void;
}

export const spentBy = (error: unknown): Usage | undefined => (isTrellisError(error) ? error.spent : undefined);

/**
 * One call of a handler, raced against its abort. It settles with the handler or, once aborted,
 * fails with the abort's reason. It waits up to ABORT_GRACE_MS for the handler to stop first: a
 * handler's spending (a child run's, known only when the cancelled child ends) is on its own
 * rejection, which failing at once would drop. A handler ignoring its signal delays the failure by
 * the grace at most.
 *
 * The handler's AbortSignal is made when it first reads it, already aborted if the attempt is: a
 * block that returns at once without reading it (most blocks that do no I/O) costs no controller,
 * and nothing listens on the signal here (the abort comes through `abort`, from the engine itself).
 */
export class HandlerAttempt implements Abortable {
  readonly outcome: Promise<Attempt>;
  private resolve!: (attempt: Attempt) => void;
  private controller: AbortController | undefined;
  private abortReason: unknown;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Aborted (a halt or the block's time limit), whether or not the handler has read its signal. */
  aborted = false;
  private finished = false;

  constructor() {
    this.outcome = new Promise<Attempt>((resolve) => (this.resolve = resolve));
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted || this.finished) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
    this.graceTimer = setTimeout(() => this.finish({ ok: false, error: reason }), ABORT_GRACE_MS);
  }

  /** Follows the handler's promise: its result, or once aborted, the abort's reason with what the handler spent. */
  follow(pending: Promise<BlockResult>): Promise<Attempt> {
    pending.then(
      (result) => this.handlerSettled({ ok: true, result }),
      (error: unknown) => this.handlerSettled({ ok: false, error, spent: spentBy(error) }),
    );
    return this.outcome;
  }

  private handlerSettled(own: Attempt): void {
    if (!this.aborted) return this.finish(own);
    clearTimeout(this.graceTimer);
    // A handler that finished anyway spent its usage too.
    this.finish({ ok: false, error: this.abortReason, spent: own.ok ? own.result.usage : own.spent });
  }

  private finish(attempt: Attempt): void {
    if (this.finished) return;
    this.finished = true;
    this.resolve(attempt);
  }
}

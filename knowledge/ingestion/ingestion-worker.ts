import { errorInfo, TrellisError } from "@/core";

/** A document claimed for processing, under a lease that expires if the process dies. */
export interface ClaimedJob {
  documentId: string;
  /** How many times processing has started, this time included. */
  attempts: number;
}

/**
 * Where the worker gets work and reports on it. `claim` must be atomic across processes: it
 * takes one `pending` document, or a `processing` one whose lease ran out (its worker died), marks
 * it `processing` with a new lease and counts the attempt.
 */
export interface IngestionQueue {
  claim(leaseMs: number): Promise<ClaimedJob | null>;
  /** Back to `pending` for another try, with the reason kept. */
  retry(job: ClaimedJob, message: string): Promise<void>;
  fail(job: ClaimedJob, message: string): Promise<void>;
}

export interface IngestionWorkerOptions {
  queue: IngestionQueue;
  /** Processes one document and marks it ready; throwing hands the failure to the worker. */
  process(job: ClaimedJob, signal: AbortSignal): Promise<void>;
  /** How long a claim lasts before another worker may take the document over. Default 5 min. */
  leaseMs?: number;
  /** How often to look for work nobody announced (expired leases, other processes). Default 10 s. */
  pollMs?: number;
  /** Attempts before a document is marked failed. Default 3. */
  maxAttempts?: number;
  /** Documents processed at once. Default 1 (the machine's cores are shared with requests). */
  concurrency?: number;
  log?: (message: string) => void;
}

/**
 * Background processing with a status per document. Work is kept in the database, not in
 * memory, so a restart loses nothing: on start, and then every `pollMs`, the worker claims any
 * pending document and any whose lease expired. Errors that may pass (provider outages) are
 * retried up to `maxAttempts`; others fail at once with the reason.
 */
export class IngestionWorker {
  private readonly options: Required<Omit<IngestionWorkerOptions, "log">> & Pick<IngestionWorkerOptions, "log">;
  private timer: ReturnType<typeof setInterval> | undefined;
  private pumping: Promise<void> | undefined;
  private wakeAgain = false;
  private readonly controller = new AbortController();

  constructor(options: IngestionWorkerOptions) {
    this.options = { leaseMs: 5 * 60_000, pollMs: 10_000, maxAttempts: 3, concurrency: 1, ...options };
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref?.();
    this.wake();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.controller.abort();
    await this.pumping;
  }

  /** Looks for work now (called after an upload). */
  wake(): void {
    if (this.pumping) {
      this.wakeAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.wakeAgain && !this.controller.signal.aborted) {
        this.wakeAgain = false;
        this.wake();
      }
    });
  }

  /** Processes until no work is left; resolves when done. For tests and scripts. */
  async drain(): Promise<void> {
    this.wake();
    while (this.pumping) await this.pumping;
  }

  private async pump(): Promise<void> {
    const lanes = Array.from({ length: this.options.concurrency }, () => this.lane());
    await Promise.all(lanes);
  }

  private async lane(): Promise<void> {
    while (!this.controller.signal.aborted) {
      let job: ClaimedJob | null;
      try {
        job = await this.options.queue.claim(this.options.leaseMs);
      } catch (error) {
        this.options.log?.(`knowledge worker could not claim work: ${errorInfo(error).message}`);
        return;
      }
      if (!job) return;
      if (job.attempts > this.options.maxAttempts) {
        // Claimed again after its lease ran out more times than allowed: the process keeps dying on it.
        await this.settleFailure(
          job,
          new Error(
            `processing stopped ${job.attempts - 1} times without finishing (the server restarted or the worker died); giving up`,
          ),
        );
        continue;
      }
      try {
        await this.options.process(job, this.controller.signal);
      } catch (error) {
        await this.settleFailure(job, error);
      }
    }
  }

  private async settleFailure(job: ClaimedJob, error: unknown): Promise<void> {
    const { message } = errorInfo(error);
    const retryable = error instanceof TrellisError ? error.retryable : false;
    try {
      if (this.controller.signal.aborted) return; // stopping: the lease will expire and another start resumes it
      if (retryable && job.attempts < this.options.maxAttempts) await this.options.queue.retry(job, message);
      else await this.options.queue.fail(job, message);
    } catch (settleError) {
      this.options.log?.(
        `knowledge worker could not record a failure for ${job.documentId}: ${errorInfo(settleError).message}`,
      );
    }
  }
}

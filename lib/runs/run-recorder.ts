import "server-only";
import { SecretRedactor, type RunObserver } from "@/executor";
import { type RunEvent, type SpanRecord, isTerminalEvent, type SequencedRunEvent } from "@/contract";
import { backoffMs, isDatabaseUnreachable, type RunEndRow, type RunWrite, type RunWriteResult } from "@/lib/db";
import { type RunChannel } from "./run-channel";
import { runLog } from "@/lib/observability";

/** Where a run's events, spans and checkpoints are stored, together (lib/db/run-writer.ts). */
export interface RunPersistence {
  write(write: RunWrite): Promise<RunWriteResult | void>;
}

/** How many spans a recorder keeps for the run's answer (`wait: true`); a larger run is answered from storage. */
export const MAX_KEPT_SPANS = 1_000;

const FLUSH_INTERVAL_MS = 100;

/**
 * How much of a run's events may wait for storage before the run is stopped: with the database
 * stalled, a streaming run would otherwise hold every event it makes in memory. Far above what a
 * healthy database leaves waiting (a batch every 100 ms).
 */
export const MAX_UNSTORED_EVENT_BYTES = 32 * 1024 * 1024;

/**
 * How long a run's events may wait for an unreachable database before the run is stopped
 * (`storage_behind`). Its events are still kept and stored once the database is back, so the
 * run ends without a gap; a restart or failover of a few seconds goes unnoticed.
 */
export const MAX_UNSTORED_MS = 30_000;

/** The limits a recorder holds a run to while storage is behind. */
export interface StorageLimits {
  maxUnstoredBytes: number;
  maxUnstoredMs: number;
}

/**
 * The engine's observer for a live run: every event goes to the run's channel at once (so open
 * streams see it immediately), and events and spans are written to the database in batches, one
 * batch at a time and in order, so a slow database never slows the run down. Everything passes
 * through the run's redactor first (the engine masks its own events; this also covers the ones
 * from elsewhere, such as approval requests), and so does what it logs.
 */
export class RunRecorder implements RunObserver {
  private pendingEvents: SequencedRunEvent[] = [];
  private pendingSpans = new Map<string, SpanRecord>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failures = 0;
  private endEvent: RunEvent | undefined;
  /** Checkpoints that ride with the run's next write (`defer`). */
  private deferred: NonNullable<RunWrite["checkpoint"]>[] = [];
  /** Every span's latest state, for the answer to a caller waiting for the run (until there are too many). */
  private kept: Map<string, SpanRecord> | undefined = new Map();

  constructor(
    private readonly channel: RunChannel,
    private readonly persistence: RunPersistence,
    private readonly redactor: SecretRedactor = new SecretRedactor(),
    private readonly onPersistError: (error: unknown) => void = (error) =>
      runLog(channel.runId, undefined, redactor).error("could not store the run's events", error),
    /** Told the last sequence number stored after each batch (other processes follow the run through it). */
    private readonly onStored: (lastSeq: number) => void = () => {},
    /** Told once when more than `maxUnstoredBytes` of events wait for storage, or events waited longer than `maxUnstoredMs`; the run must stop. */
    private readonly onStorageBehind: (waitingBytes: number) => void = () => {},
    private readonly limits: StorageLimits = {
      maxUnstoredBytes: MAX_UNSTORED_EVENT_BYTES,
      maxUnstoredMs: MAX_UNSTORED_MS,
    },
  ) {}

  private storageBehind = false;
  /** A batch is waiting for the database to come back (logged once per outage). */
  private retrying = false;

  event(unmasked: RunEvent): void {
    const event = this.redactor.redact(unmasked);
    // The run's last event waits until its row is stored (see publishEnd), so a client that reads
    // GET /api/runs/:id as soon as the stream ends sees the same status and totals.
    if (isTerminalEvent(event)) {
      this.endEvent = event;
      return;
    }
    this.pendingEvents.push(this.channel.publish(event));
    this.schedule();
    if (this.channel.unstoredBytes > this.limits.maxUnstoredBytes) this.fallBehind();
  }

  private fallBehind(): void {
    if (this.storageBehind) return;
    this.storageBehind = true;
    this.onStorageBehind(this.channel.unstoredBytes);
  }

  /** Publishes and stores the held terminal event (run.completed, run.failed or run.cancelled). */
  async publishEnd(): Promise<void> {
    if (this.endEvent) {
      this.pendingEvents.push(this.channel.publish(this.endEvent));
      this.endEvent = undefined;
    }
    await this.flush();
  }

  span(unmasked: SpanRecord): void {
    const span = this.redactor.redact(unmasked);
    // Only the latest state of a span needs writing; earlier states in the same batch are superseded.
    this.pendingSpans.set(span.id, span);
    this.kept?.set(span.id, span);
    if (this.kept && this.kept.size > MAX_KEPT_SPANS) this.kept = undefined;
    this.schedule();
  }

  /** The run's spans as stored, in start order; undefined when it had too many to keep. */
  spans(): SpanRecord[] | undefined {
    if (!this.kept) return undefined;
    return [...this.kept.values()].sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  }

  /**
   * Ends the run: its row's end, its last spans and events and its final event in one write, the
   * final event published once stored (a client reading the run when the stream ends sees the
   * same). Answers whether the end was applied (false: the run had already ended, say cancelled
   * by another process).
   * @throws when the write is refused (not an outage, which is retried): the final event stays held
   */
  async finish(end: RunEndRow): Promise<boolean> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const events = this.pendingEvents;
    const spans = [...this.pendingSpans.values()];
    this.pendingEvents = [];
    this.pendingSpans = new Map();
    // Numbered now, published once stored: nothing else is published on a run whose engine has returned.
    const final = this.endEvent && { seq: this.channel.lastSeq + 1, event: this.endEvent };
    const deferred = this.takeDeferred();
    const write: RunWrite = {
      runId: this.channel.runId,
      spans,
      events: final ? [...events, final] : events,
      ...deferred,
      end,
    };
    let outcome: { ended: boolean } | { failed: unknown } = { ended: false };
    this.writing = this.writing.then(async () => {
      try {
        outcome = { ended: Boolean((await this.persist(write))?.ended) };
      } catch (error) {
        this.failures += 1;
        outcome = { failed: error };
        this.onPersistError(error);
      }
    });
    await this.writing;
    if ("failed" in outcome) {
      // The end is written the old way; the events before it were refused for good, like any refused batch.
      if (events.length > 0) this.channel.stored(events[events.length - 1]!.seq);
      throw outcome.failed;
    }
    if (this.endEvent) {
      this.channel.publish(this.endEvent);
      this.endEvent = undefined;
    }
    const last = this.channel.lastSeq;
    this.channel.stored(last);
    if (events.length > 0 || final) this.onStored(last);
    return outcome.ended;
  }

  /**
   * Stores `checkpoint` with the run's next write instead of a write of its own: for a block that
   * costs nothing to run again and does nothing outside the run (the start block). The run's
   * writes land in order, so a later checkpoint is never stored without this one.
   */
  defer(checkpoint: NonNullable<RunWrite["checkpoint"]>): void {
    this.deferred.push(checkpoint);
    this.schedule();
  }

  private takeDeferred(): Pick<RunWrite, "deferred"> {
    if (this.deferred.length === 0) return {};
    const deferred = this.deferred;
    this.deferred = [];
    return { deferred };
  }

  /**
   * Writes everything still pending and waits for it; with `checkpoint`, in the same write, so a
   * checkpoint is never stored without the events before it.
   * @throws when a write holding a checkpoint fails (the block must not count as durable)
   */
  async flush(checkpoint?: RunWrite["checkpoint"]): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const events = this.pendingEvents;
    const spans = [...this.pendingSpans.values()];
    this.pendingEvents = [];
    this.pendingSpans = new Map();
    let failed: unknown;
    const deferred = this.takeDeferred();
    if (events.length > 0 || spans.length > 0 || checkpoint || deferred.deferred) {
      const write: RunWrite = {
        runId: this.channel.runId,
        spans,
        events,
        ...deferred,
        ...(checkpoint ? { checkpoint } : {}),
      };
      this.writing = this.writing.then(async () => {
        try {
          await this.persist(write);
          if (events.length > 0) this.onStored(events[events.length - 1]!.seq);
        } catch (error) {
          this.failures += 1;
          failed = error;
          this.onPersistError(error);
        }
        // Stored, or refused for good (not an outage: retrying would fail the same way); either way the channel need not hold them.
        if (events.length > 0) this.channel.stored(events[events.length - 1]!.seq);
      });
    }
    await this.writing;
    if (checkpoint && failed !== undefined) throw failed;
  }

  /**
   * Writes one batch, again and again while the database is unreachable (a restart, a failover):
   * a write is idempotent (events and checkpoints are inserted once, spans upserted), and batches
   * go one at a time, so the run's events are stored in order and without a gap. Past
   * `maxUnstoredMs` of trying the run is told to stop, and the batch is still kept and retried.
   */
  private async persist(write: RunWrite): Promise<RunWriteResult | void> {
    let failingSince: number | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.persistence.write(write);
        if (failingSince !== undefined) this.retrying = false;
        return result;
      } catch (error) {
        if (!isDatabaseUnreachable(error)) throw error;
        failingSince ??= Date.now();
        if (!this.retrying) {
          this.retrying = true;
          this.onPersistError(error);
        }
        if (Date.now() - failingSince > this.limits.maxUnstoredMs) this.fallBehind();
        await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, 100, 2_000)));
      }
    }
  }

  get persistFailures(): number {
    return this.failures;
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_INTERVAL_MS);
  }
}

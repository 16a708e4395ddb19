import "server-only";
import { SecretRedactor, type RunObserver } from "@/executor";
import { type RunEvent, type SpanRecord, isTerminalEvent, type SequencedRunEvent } from "@/contract";
import { type RunChannel } from "./run-channel";

/** Where a run's events and spans are stored; implemented over the database in lib/db. */
export interface RunPersistence {
  appendEvents(runId: string, events: SequencedRunEvent[]): Promise<void>;
  upsertSpans(spans: SpanRecord[]): Promise<void>;
}

const FLUSH_INTERVAL_MS = 100;

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

  constructor(
    private readonly channel: RunChannel,
    private readonly persistence: RunPersistence,
    private readonly redactor: SecretRedactor = new SecretRedactor(),
    private readonly onPersistError: (error: unknown) => void = (error) =>
      console.error(`[trellis] could not store run ${channel.runId} events:`, redactor.redactText(error instanceof Error ? error.message : String(error))),
    /** Told the last sequence number stored after each batch (other processes follow the run through it). */
    private readonly onStored: (lastSeq: number) => void = () => {},
  ) {}

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
    this.schedule();
  }

  /**
   * Writes everything still pending and waits for it.
   * @throws when a write fails and `strict` is set (a checkpoint must not be stored ahead of its events)
   */
  async flush(strict = false): Promise<void> {
    const failuresBefore = this.failures;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const events = this.pendingEvents;
    const spans = [...this.pendingSpans.values()];
    this.pendingEvents = [];
    this.pendingSpans = new Map();
    if (events.length > 0 || spans.length > 0) {
      this.writing = this.writing.then(async () => {
        try {
          // Spans first: an event that mentions a span can then always be joined to it.
          if (spans.length > 0) await this.persistence.upsertSpans(spans);
          if (events.length > 0) {
            await this.persistence.appendEvents(this.channel.runId, events);
            this.onStored(events[events.length - 1]!.seq);
          }
        } catch (error) {
          this.failures += 1;
          this.onPersistError(error);
        }
      });
    }
    await this.writing;
    if (strict && this.failures > failuresBefore) throw new Error(`the run's events could not be stored`);
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

import type { WorkflowGraph } from "../graph";
import type { RunObserver } from "../events";
import { type RunEvent, type RunPauseReason, type SpanRecord, type Usage } from "@/contract";
import type { BlockHandlerLookup } from "../handler";
import { addUsage, emptyUsage } from "../usage";
import type { CheckpointStore } from "./checkpoints";
import type { SecretRedactor } from "./secret-redactor";
import { Semaphore } from "./semaphore";
import { StopToken } from "./stop-token";

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Why the whole run stopped early, if it did. */
export type RunHalt =
  | { kind: "cancelled"; error: Error }
  | { kind: "terminal"; blockName: string; data: unknown; error: Error }
  | { kind: "timeout"; error: Error }
  /** Failed from outside its blocks (RunStoppedError). */
  | { kind: "stopped"; error: Error }
  /** Stopped to wait for a person; the run goes on later from its checkpoints (RunParkedError). */
  | { kind: "parked"; park: RunPark; error: Error };

/** Where and why a run stopped to wait for a person. */
export interface RunPark {
  reason: RunPauseReason;
  blockId: string;
  spanId: string | null;
  toolCallId?: string;
}

export interface RunSettings {
  graph: WorkflowGraph;
  runId: string;
  workflowId: string;
  input: Readonly<Record<string, unknown>>;
  variables: Readonly<Record<string, unknown>>;
  env: (name: string) => string | undefined;
  depth: number;
  lookupHandler: BlockHandlerLookup;
  observer: RunObserver;
  clock: Clock;
  newId: () => string;
  concurrency: number;
  /** Masks secret values in everything the run reports; `{{NAME}}` values are added as they are read. */
  redactor: SecretRedactor;
  /** A durable run's finished blocks: restored instead of run, and stored as they finish. */
  checkpoints?: CheckpointStore;
}

/** State shared by every scope of one run: settings, the concurrency cap, totals, the halt switch. */
export class RunContext {
  readonly semaphore: Semaphore;
  readonly stop = new StopToken();
  usage: Usage = emptyUsage();
  halt: RunHalt | null = null;
  /** Abort controllers of the handlers running now; a halt aborts them all. */
  readonly running = new Set<AbortController>();
  private closed = false;

  constructor(readonly settings: RunSettings) {
    this.semaphore = new Semaphore(settings.concurrency);
  }

  get graph(): WorkflowGraph {
    return this.settings.graph;
  }

  now(): number {
    return this.settings.clock.now();
  }

  iso(time: number): string {
    return new Date(time).toISOString();
  }

  get redactor(): SecretRedactor {
    return this.settings.redactor;
  }

  /** Every event leaves the run masked. Observers must not throw; if one does anyway, the run goes on. */
  emit(event: RunEvent): void {
    if (this.closed) return;
    try {
      this.settings.observer.event(this.redact(event));
    } catch {
      // A failing observer must not change the run's outcome.
    }
  }

  /** Every span leaves the run masked, like events. */
  span(record: SpanRecord): void {
    if (this.closed) return;
    try {
      this.settings.observer.span(this.redact(record));
    } catch {
      // As above.
    }
  }

  /** After the run's final event nothing else is reported (late handlers are ignored). */
  close(): void {
    this.closed = true;
  }

  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  haltRun(halt: RunHalt): void {
    if (this.halt) return;
    this.halt = halt;
    this.stop.stop();
    for (const controller of this.running) controller.abort(halt.error);
  }

  /** Masks every secret value this run may read inside text, objects and arrays. */
  redact<T>(value: T): T {
    return this.settings.redactor.redact(value);
  }

  redactText(text: string): string {
    return this.settings.redactor.redactText(text);
  }
}

import type { WorkflowGraph } from "../graph";
import type { RunObserver } from "../events";
import { type AskChoice, type RunEvent, type RunPauseReason, type SpanRecord, type Usage } from "@/contract";
import { CancelledError, type BlockHandlerLookup, addUsage, emptyUsage, SpendLedger, type SpendLimits } from "@/core";
import type { RunAnswers } from "./run-answers";
import type { CheckpointStore } from "./checkpoint-store";
import type { Abortable } from "./handler-attempt";
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
  | { kind: "parked"; parks: RunPark[]; error: Error };

/** Where and why a run stopped to wait for a person: one per tool call or ask waiting. */
export interface RunPark {
  reason: RunPauseReason;
  blockId: string;
  spanId: string | null;
  toolCallId?: string;
  question?: string;
  choices?: AskChoice[];
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
  /** Where ask blocks find their answers; without it (a workflow run by another, as a tool or a Workflow block) an ask cannot wait. */
  answers?: RunAnswers;
  /** A test run: handlers get a `simulation` (simulation.ts), and blocks with a recorded answer return it without running. */
  test?: boolean;
  /** The caps the run's model calls are held to (spend-ledger.ts); none when absent. */
  budget?: SpendLimits;
}

/** State shared by every scope of one run: settings, the concurrency cap, totals, the halt switch. */
export class RunContext {
  readonly semaphore: Semaphore;
  readonly stop = new StopToken();
  usage: Usage = emptyUsage();
  halt: RunHalt | null = null;
  /** The handler attempts (and waits between attempts) running now; a halt aborts them all. */
  readonly running = new Set<Abortable>();
  private closed = false;
  /** Blocks launched and not yet settled (a container only between its iterations), and how many of them wait for a person. */
  private busy = 0;
  private waiting = 0;
  private idleCheck: ReturnType<typeof setTimeout> | undefined;
  private lastIsoTime = NaN;
  private lastIso = "";
  /** What the run may still spend; present when it is held to a cap. */
  readonly ledger: SpendLedger | undefined;

  constructor(readonly settings: RunSettings) {
    this.semaphore = new Semaphore(settings.concurrency);
    const { budget } = settings;
    this.ledger = budget && (budget.caps.length > 0 || budget.parent) ? new SpendLedger(budget) : undefined;
  }

  get graph(): WorkflowGraph {
    return this.settings.graph;
  }

  now(): number {
    return this.settings.clock.now();
  }

  /** Blocks that start and end within one millisecond share its text, made once. */
  iso(time: number): string {
    if (time !== this.lastIsoTime) {
      this.lastIsoTime = time;
      this.lastIso = new Date(time).toISOString();
    }
    return this.lastIso;
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
    if (this.idleCheck !== undefined) clearTimeout(this.idleCheck);
  }

  /** A block (or a container between iterations) can make progress; `-1` when it settles or hands over to its iterations. */
  busyBy(delta: 1 | -1): void {
    this.busy += delta;
    if (delta < 0) this.checkIdle();
  }

  beginWait(): void {
    this.waiting += 1;
    this.checkIdle();
  }

  endWait(): void {
    this.waiting -= 1;
  }

  /**
   * Parks the run once nothing but asks waiting for a person is left. Looked at after the current
   * turn of the event loop, so a block that just settled has launched what follows it first.
   */
  private checkIdle(): void {
    if (this.waiting === 0 || this.halt || this.idleCheck !== undefined) return;
    this.idleCheck = setTimeout(() => {
      this.idleCheck = undefined;
      if (this.halt || this.waiting === 0 || this.busy > this.waiting) return;
      this.haltRun({
        kind: "parked",
        parks: this.waitingParks(),
        error: new CancelledError("The run stopped to wait for answers"),
      });
    }, 0);
  }

  /** One park per ask waiting now, with what it asks. */
  waitingParks(): RunPark[] {
    return (this.settings.answers?.waiting() ?? []).map((ask) => ({
      reason: "ask",
      blockId: ask.blockId,
      spanId: ask.spanId,
      question: ask.question,
      choices: ask.choices,
    }));
  }

  addUsage(usage: Usage): void {
    this.usage = addUsage(this.usage, usage);
  }

  haltRun(halt: RunHalt): void {
    if (this.halt) return;
    this.halt = halt;
    this.stop.stop();
    for (const running of this.running) running.abort(halt.error);
  }

  /** Masks every secret value this run may read inside text, objects and arrays. */
  redact<T>(value: T): T {
    return this.settings.redactor.redact(value);
  }

  redactText(text: string): string {
    return this.settings.redactor.redactText(text);
  }
}

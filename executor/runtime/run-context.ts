import type { WorkflowGraph } from "../graph";
import type { RunObserver } from "../events";
import { type RunEvent, type SpanRecord, type Usage } from "@/contract";
import type { BlockHandlerLookup } from "../handler";
import { addUsage, emptyUsage } from "../usage";
import { Semaphore } from "./semaphore";
import { StopToken } from "./stop-token";

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Why the whole run stopped early, if it did. */
export type RunHalt =
  { kind: "cancelled"; error: Error } | { kind: "terminal"; blockName: string; data: unknown; error: Error } | { kind: "timeout"; error: Error };

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
}

const REDACTED = "[secret]";

/** State shared by every scope of one run: settings, the concurrency cap, totals, the halt switch. */
export class RunContext {
  readonly semaphore: Semaphore;
  readonly stop = new StopToken();
  usage: Usage = emptyUsage();
  halt: RunHalt | null = null;
  /** Abort controllers of the handlers running now; a halt aborts them all. */
  readonly running = new Set<AbortController>();
  /** Secret values inserted into any config so far; masked in events and spans. */
  readonly secrets = new Set<string>();
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

  /** Observers must not throw; if one does anyway, the run goes on. */
  emit(event: RunEvent): void {
    if (this.closed) return;
    try {
      this.settings.observer.event(event);
    } catch {
      // A failing observer must not change the run's outcome.
    }
  }

  span(record: SpanRecord): void {
    if (this.closed) return;
    try {
      this.settings.observer.span(record);
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

  /** Masks every secret value used in this run inside text, objects and arrays. */
  redact<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return this.redactValue(value) as T;
  }

  redactText(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (secret.length > 0) result = result.split(secret).join(REDACTED);
    return result;
  }

  private redactValue(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item));
    if (value !== null && typeof value === "object") {
      const result: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) result[key] = this.redactValue(item);
      return result;
    }
    return value;
  }
}

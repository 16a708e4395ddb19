import "server-only";
import { EventEmitter } from "node:events";
import type { AskAnswer, PendingAsk } from "@/contract";
import { processLogger } from "@/lib/observability";

/** What processes tell each other about runs (docs/CONTRACT.md section 11). */
export type RunSignal =
  /** New events of these runs are stored, up to `seq`. */
  | { kind: "events"; runs: Array<[runId: string, seq: number]> }
  /** These runs ended (their row and final event are stored). */
  | { kind: "ended"; runIds: string[] }
  /** Stop this run wherever it executes. */
  | { kind: "cancel"; runId: string }
  /** A person decided a tool call of this run; the process holding the run goes on with it. */
  | { kind: "approval"; runId: string; toolCallId: string; approved: boolean; reason?: string }
  /** A person answered an ask of this run; the process holding the run gives the answer to the waiting block. */
  | { kind: "answer"; runId: string; spanId: string; ask: PendingAsk; answer: AskAnswer }
  /** A workspace's cached reads changed (sent by a database trigger on commit; lib/cache). */
  | { kind: "cache"; workspaceId: string; generation: number };

export interface RunBus {
  publish(signal: RunSignal): Promise<void>;
  /** Publishes `events` and `ended` signals together (one statement where the bus is the database). */
  publishBatch?(signals: Array<Extract<RunSignal, { kind: "events" | "ended" }>>): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: (signal: RunSignal) => void): () => void;
  /**
   * Called after signals may have been missed (the listening connection was away): what was
   * stored meanwhile has been replayed, and anyone waiting should read storage again.
   */
  onResync(listener: () => void): () => void;
  /** Called when the listening connection was lost: signals sent from now until `onResync` may be missed. */
  onLost(listener: () => void): () => void;
  close(): Promise<void>;
}

/** One process (the embedded database): signals stay in memory. */
export class LocalRunBus implements RunBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(signal: RunSignal): Promise<void> {
    this.emitter.emit("signal", signal);
  }

  subscribe(listener: (signal: RunSignal) => void): () => void {
    this.emitter.on("signal", listener);
    return () => this.emitter.off("signal", listener);
  }

  /** Nothing is ever missed in memory. */
  onResync(): () => void {
    return () => {};
  }

  onLost(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
export const MAX_PAYLOAD = 7_000;

/** Splits a signal whose payload would be too large for one notification. */
export function split(signal: RunSignal): RunSignal[] {
  if (JSON.stringify(signal).length <= MAX_PAYLOAD) return [signal];
  if (signal.kind === "events") {
    const half = Math.ceil(signal.runs.length / 2);
    return [
      ...split({ kind: "events", runs: signal.runs.slice(0, half) }),
      ...split({ kind: "events", runs: signal.runs.slice(half) }),
    ];
  }
  if (signal.kind === "ended") {
    const half = Math.ceil(signal.runIds.length / 2);
    return [
      ...split({ kind: "ended", runIds: signal.runIds.slice(0, half) }),
      ...split({ kind: "ended", runIds: signal.runIds.slice(half) }),
    ];
  }
  return [signal];
}

/**
 * Gathers `events` and `ended` signals and sends them as one, so a busy process sends tens of
 * notifications a second, not one per run and flush: an end goes out within `delayMs`, with the
 * events waiting, and events alone within `eventsDelayMs` (a run shorter than that signals once).
 */
export class SignalBatcher {
  private seqs = new Map<string, number>();
  private endedRuns = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dueAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly bus: RunBus,
    private readonly delayMs = 10,
    private readonly eventsDelayMs = 50,
  ) {}

  events(runId: string, seq: number): void {
    this.seqs.set(runId, Math.max(seq, this.seqs.get(runId) ?? 0));
    this.schedule(this.eventsDelayMs);
  }

  ended(runId: string): void {
    this.endedRuns.add(runId);
    this.schedule(this.delayMs);
  }

  private schedule(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (this.timer !== undefined && this.dueAt <= due) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = setTimeout(() => void this.flush(), delayMs);
  }

  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = Number.POSITIVE_INFINITY;
    const runs = [...this.seqs];
    const ended = [...this.endedRuns];
    this.seqs = new Map();
    this.endedRuns = new Set();
    // A run that ended has all its events stored: "ended" says so for it.
    const endedSet = new Set(ended);
    const stored = runs.filter(([runId]) => !endedSet.has(runId));
    const signals: Array<Extract<RunSignal, { kind: "events" | "ended" }>> = [
      ...(stored.length > 0 ? [{ kind: "events" as const, runs: stored }] : []),
      ...(ended.length > 0 ? [{ kind: "ended" as const, runIds: ended }] : []),
    ];
    if (signals.length === 0) return;
    try {
      if (this.bus.publishBatch) await this.bus.publishBatch(signals);
      else for (const signal of signals) await this.bus.publish(signal);
    } catch (error) {
      processLogger().error({ err: error }, "could not signal other processes");
    }
  }
}

import "server-only";
import { EventEmitter } from "node:events";
import type { AskAnswer, PendingAsk } from "@/contract";

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
    return [...split({ kind: "events", runs: signal.runs.slice(0, half) }), ...split({ kind: "events", runs: signal.runs.slice(half) })];
  }
  if (signal.kind === "ended") {
    const half = Math.ceil(signal.runIds.length / 2);
    return [...split({ kind: "ended", runIds: signal.runIds.slice(0, half) }), ...split({ kind: "ended", runIds: signal.runIds.slice(half) })];
  }
  return [signal];
}

/**
 * Gathers `events` and `ended` signals for a few milliseconds and sends them as one, so a busy
 * process sends tens of notifications a second, not one per run and flush.
 */
export class SignalBatcher {
  private seqs = new Map<string, number>();
  private endedRuns = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly bus: RunBus,
    private readonly delayMs = 10,
  ) {}

  events(runId: string, seq: number): void {
    this.seqs.set(runId, Math.max(seq, this.seqs.get(runId) ?? 0));
    this.schedule();
  }

  ended(runId: string): void {
    this.endedRuns.add(runId);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  async flush(): Promise<void> {
    this.timer = undefined;
    const runs = [...this.seqs];
    const ended = [...this.endedRuns];
    this.seqs = new Map();
    this.endedRuns = new Set();
    try {
      if (runs.length > 0) await this.bus.publish({ kind: "events", runs });
      if (ended.length > 0) await this.bus.publish({ kind: "ended", runIds: ended });
    } catch (error) {
      console.error("[trellis] could not signal other processes:", error instanceof Error ? error.message : error);
    }
  }
}

import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
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
  | { kind: "answer"; runId: string; spanId: string; ask: PendingAsk; answer: AskAnswer };

export interface RunBus {
  publish(signal: RunSignal): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: (signal: RunSignal) => void): () => void;
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

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = "trellis_runs";
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
const MAX_PAYLOAD = 7_000;

/**
 * Several processes on one PostgreSQL: LISTEN/NOTIFY on one channel. A notification is delivered
 * only after the transaction that sent it commits, and to every listening process including the
 * sender. The listening connection reconnects when it drops; signals sent meanwhile are lost,
 * which readers cover by re-reading storage (run-follow.ts polls as a fallback).
 */
export class PostgresRunBus implements RunBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private listener: pg.Client | null = null;
  private closed = false;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
  ) {}

  async start(): Promise<void> {
    this.connecting ??= this.connect();
    await this.connecting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        this.emitter.emit("signal", JSON.parse(message.payload) as RunSignal);
      } catch {
        // Not ours: ignore.
      }
    });
    client.on("error", () => this.reconnect(client));
    client.on("end", () => this.reconnect(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = null;
    this.connecting = null;
    setTimeout(() => void this.start().catch(() => this.reconnectLater()), 500).unref();
  }

  private reconnectLater(): void {
    if (!this.closed) setTimeout(() => void this.start().catch(() => this.reconnectLater()), 2_000).unref();
  }

  async publish(signal: RunSignal): Promise<void> {
    for (const part of split(signal)) await this.pool.query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify(part)]);
  }

  subscribe(listener: (signal: RunSignal) => void): () => void {
    this.emitter.on("signal", listener);
    return () => this.emitter.off("signal", listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.emitter.removeAllListeners();
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => {});
  }
}

/** Splits a signal whose payload would be too large for one notification. */
function split(signal: RunSignal): RunSignal[] {
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

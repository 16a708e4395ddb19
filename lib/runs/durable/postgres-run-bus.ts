import "server-only";
import { EventEmitter } from "node:events";
import pg from "pg";
import { backoffMs, describeConnectionError } from "@/lib/db";
import { MAX_PAYLOAD, split, type RunBus, type RunSignal } from "./run-bus";
import { processLogger } from "@/lib/observability";

const CHANNEL = "trellis_runs";
/** How often the listening connection is asked whether it is alive (a dead one is replaced). */
const KEEPALIVE_MS = 5_000;
/** A replay reads back this far before the last moment the connection was known alive (a commit lands after its timestamp). */
const REPLAY_MARGIN = "5 seconds";
/** Stored signals are kept this long; every process deletes older ones now and then. */
const KEEP_SIGNALS = "1 hour";
/** Ids of stored signals already handed on, so that a replay does not repeat them. */
const REMEMBERED_IDS = 10_000;

/** The listening connection's application_name (pg_stat_activity tells it from the pools' connections). */
export const LISTENER_NAME = "trellis-run-bus";

/** Signals a lost notification would leave undone: they are stored as well as notified. */
type StoredSignal = Extract<RunSignal, { kind: "cancel" | "approval" | "answer" }>;
const isStored = (signal: RunSignal): signal is StoredSignal =>
  signal.kind === "cancel" || signal.kind === "approval" || signal.kind === "answer";

/** A notification's payload: the signal, and for a stored one its row id (`stored` alone when it was too large to send). */
type Payload = RunSignal | (StoredSignal & { signalId: string }) | { kind: "stored"; signalId: string };

/**
 * Inserts the signal and notifies it in one statement: the notification goes out when the row is
 * committed. One too large for a notification is sent as its row id, for listeners to read.
 */
const PUBLISH_STORED_SQL = `WITH stored AS (
  INSERT INTO run_signals (run_id, kind, payload) VALUES ($1::text, $2::text, $3::text::jsonb) RETURNING id
)
SELECT pg_notify($4::text, CASE WHEN length($3::text) < ${MAX_PAYLOAD}
  THEN jsonb_set($3::text::jsonb, '{signalId}', to_jsonb(id::text))::text
  ELSE json_build_object('kind', 'stored', 'signalId', id::text)::text END) FROM stored`;

/**
 * Several processes on one PostgreSQL: LISTEN/NOTIFY on one channel. A notification is delivered
 * only after the transaction that sent it commits, and to every listening process including the
 * sender. Notifications sent while a process's listening connection is away are lost to it, so:
 * - the connection is checked every few seconds and, once lost, replaced by a fresh one with
 *   backoff (from 100 ms to 5 s) for as long as it takes;
 * - signals that would leave something undone (a cancel, a decision, an answer) are stored too,
 *   and a new connection replays those stored since the old one was last known alive;
 * - after that, `onResync` listeners read storage again (run ends and new events are there).
 */
export class PostgresRunBus implements RunBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private listener: pg.Client | null = null;
  private closed = false;
  /** The database's clock when the listening connection was last known alive: nothing was missed before it. */
  private heardUntil: Date | null = null;
  private readonly handedOn = new Set<string>();
  private attempts = 0;
  private lostAt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private keepaliveTimer: ReturnType<typeof setInterval> | undefined;
  private ticks = 0;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly keepaliveMs = KEEPALIVE_MS,
    private readonly log: (message: string) => void = (message) => processLogger().warn(message),
  ) {}

  /** Connects the listening connection; throws when the database cannot be reached at start-up. */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      query_timeout: 10_000,
      application_name: LISTENER_NAME,
    });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) this.heard(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Listening from here on: what was stored before, since the last moment the old connection was alive, is read back.
      const since = this.heardUntil;
      const { rows } = await client.query<{ now: Date }>("SELECT now() AS now");
      if (since) await this.replay(client, since);
      this.heardUntil = rows[0]!.now;
    } catch (error) {
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      void client.end().catch(() => {});
      return;
    }
    this.listener = client;
    this.keepaliveTimer = setInterval(() => void this.keepalive(client), this.keepaliveMs);
    this.keepaliveTimer.unref();
    if (this.attempts > 0) {
      this.log(
        `run bus: listening again after ${Date.now() - this.lostAt} ms (${this.attempts} attempt(s)); missed signals replayed`,
      );
      this.attempts = 0;
      this.emitter.emit("resync");
    }
  }

  /** Stored signals since `since` (less a margin) that were not handed on yet, in the order they were stored. */
  private async replay(client: pg.Client, since: Date): Promise<void> {
    const { rows } = await client.query<{ id: string; payload: RunSignal }>(
      `SELECT id::text AS id, payload FROM run_signals WHERE created_at >= $1::timestamptz - interval '${REPLAY_MARGIN}' ORDER BY id`,
      [since],
    );
    for (const row of rows) this.handOn(row.id, row.payload);
  }

  private async keepalive(client: pg.Client): Promise<void> {
    try {
      const { rows } = await client.query<{ now: Date }>("SELECT now() AS now");
      if (this.listener === client) this.heardUntil = rows[0]!.now;
      if (++this.ticks % 12 === 0)
        await this.pool.query(`DELETE FROM run_signals WHERE created_at < now() - interval '${KEEP_SIGNALS}'`);
    } catch (error) {
      if (this.listener === client && !this.closed) {
        this.log(`run bus: the listening connection stopped answering (${describeConnectionError(error)})`);
        this.lost(client);
      }
    }
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = null;
    clearInterval(this.keepaliveTimer);
    client.removeAllListeners("notification");
    void client.end().catch(() => {});
    this.lostAt = Date.now();
    this.log("run bus: the listening connection to the database was lost; reconnecting");
    this.emitter.emit("lost");
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.reconnectTimer !== undefined) return;
    this.attempts += 1;
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = undefined;
        void this.connect().catch(() => this.reconnectLater());
      },
      backoffMs(this.attempts, 100, 5_000),
    );
    this.reconnectTimer.unref();
  }

  private heard(raw: string): void {
    let payload: Payload;
    try {
      payload = JSON.parse(raw) as Payload;
    } catch {
      return; // Not ours.
    }
    if (payload.kind === "stored") {
      void this.fetch(payload.signalId);
      return;
    }
    if ("signalId" in payload) {
      const { signalId, ...signal } = payload;
      this.handOn(signalId, signal as StoredSignal);
    } else this.emitter.emit("signal", payload);
  }

  /** A stored signal too large for its notification. */
  private async fetch(id: string): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ payload: RunSignal }>(
        "SELECT payload FROM run_signals WHERE id = $1::bigint",
        [id],
      );
      if (rows[0]) this.handOn(id, rows[0].payload);
    } catch (error) {
      // The replay after the reconnect reads it.
      this.log(`run bus: could not read signal ${id} (${describeConnectionError(error)})`);
    }
  }

  private handOn(id: string, signal: RunSignal): void {
    if (this.handedOn.has(id)) return;
    this.handedOn.add(id);
    if (this.handedOn.size > REMEMBERED_IDS) this.handedOn.delete(this.handedOn.values().next().value!);
    this.emitter.emit("signal", signal);
  }

  async publish(signal: RunSignal): Promise<void> {
    if (isStored(signal)) {
      await this.pool.query(PUBLISH_STORED_SQL, [signal.runId, signal.kind, JSON.stringify(signal), CHANNEL]);
      return;
    }
    for (const part of split(signal))
      await this.pool.query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify(part)]);
  }

  async publishBatch(signals: Array<Extract<RunSignal, { kind: "events" | "ended" }>>): Promise<void> {
    const payloads = signals.flatMap((signal) => split(signal)).map((part) => JSON.stringify(part));
    if (payloads.length === 0) return;
    const calls = payloads.map((_, index) => `pg_notify($1, $${index + 2})`).join(", ");
    await this.pool.query(`SELECT ${calls}`, [CHANNEL, ...payloads]);
  }

  subscribe(listener: (signal: RunSignal) => void): () => void {
    this.emitter.on("signal", listener);
    return () => this.emitter.off("signal", listener);
  }

  onResync(listener: () => void): () => void {
    this.emitter.on("resync", listener);
    return () => this.emitter.off("resync", listener);
  }

  onLost(listener: () => void): () => void {
    this.emitter.on("lost", listener);
    return () => this.emitter.off("lost", listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.keepaliveTimer);
    this.emitter.removeAllListeners();
    const client = this.listener;
    this.listener = null;
    await client?.end().catch(() => {});
  }
}

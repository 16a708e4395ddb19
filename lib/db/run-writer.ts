import "server-only";
import type { SequencedRunEvent, SpanRecord } from "@/contract";
import pg from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { isDatabaseUnreachable, survivePoolErrors } from "./connection-errors";
import { NotFoundError } from "./errors";
import type { RunEndRow, RunInsertRow } from "./run-rows";
import { NO_USAGE_COLUMNS, usageToColumns } from "./usage-columns";

/**
 * What one run hands to storage at once: its row when it is new, its latest span states, new
 * events, maybe a block checkpoint, and its end (run-rows.ts makes the rows).
 */
export interface RunWrite {
  runId: string;
  /** A new run: stored before anything else of it (its other writes wait for this one). */
  run?: RunInsertRow;
  spans?: readonly SpanRecord[];
  events?: readonly SequencedRunEvent[];
  checkpoint?: RunCheckpointRow;
  /** Checkpoints that waited for this write (run-recorder.ts `defer`): stored with it, before `checkpoint`. */
  deferred?: readonly RunCheckpointRow[];
  /** The run's end, with its last spans and events: applied only while the run is running or paused. */
  end?: RunEndRow;
}

export interface RunCheckpointRow {
  key: string;
  data: unknown;
  sealed: string | null;
}

export interface RunWriteResult {
  /** The write's `end` was applied (false: there was none, or the run had already ended, say cancelled by another process). */
  ended: boolean;
}

interface Pending {
  write: RunWrite;
  resolve: (result: RunWriteResult) => void;
  reject: (error: unknown) => void;
}

const SPAN_COLUMNS = `id text, run_id text, parent_id text, kind text, block_id text, block_name text, block_type text, name text, model text,
  status text, started_at timestamptz, ended_at timestamptz, duration_ms int, input jsonb, output jsonb, error jsonb, iteration jsonb, attempt int, worker text, reused_from text, simulated text, price jsonb,
  prompt_tokens int, completion_tokens int, total_tokens int, cached_prompt_tokens int, cache_write_tokens int, reasoning_tokens int,
  cost_input numeric, cost_output numeric, cost_total numeric, cost_reasoning numeric, unpriced boolean, estimated boolean`;
const SPAN_NAMES = SPAN_COLUMNS.split(",").map((column) => column.trim().split(/\s+/)[0]!);
const SPAN_UPDATES = SPAN_NAMES.filter((name) => name !== "id" && name !== "run_id")
  .map((name) => `${name} = EXCLUDED.${name}`)
  .join(", ");

const USAGE_COLUMNS = `prompt_tokens int, completion_tokens int, total_tokens int, cached_prompt_tokens int, cache_write_tokens int, reasoning_tokens int,
  cost_input numeric, cost_output numeric, cost_total numeric, cost_reasoning numeric, unpriced boolean, estimated boolean`;
const RUN_COLUMNS = `id text, workspace_id text, workflow_id text, status text, input jsonb, document jsonb, workflow_version int, parent_run_id text, worker text,
  trigger_kind text, api_key_id text, user_id text, webhook_id text, schedule_id text, conversation_id text, deployment_id text, rerun_of_run_id text,
  rerun_of_block_id text, replay_of_run_id text, test boolean, budget jsonb, trace_parent text, started_at timestamptz, queued_at timestamptz, ${USAGE_COLUMNS}`;
const END_COLUMNS = `id text, status text, output jsonb, error jsonb, ended_at timestamptz, duration_ms int, overhead jsonb, ${USAGE_COLUMNS}`;
const columnNames = (columns: string) => columns.split(",").map((column) => column.trim().split(/\s+/)[0]!);
const RUN_NAMES = columnNames(RUN_COLUMNS);
const END_UPDATES = columnNames(END_COLUMNS)
  .filter((name) => name !== "id")
  .map((name) => `${name} = x.${name}`)
  .join(", ");

/**
 * One statement stores everything waiting, for all runs: new runs' rows, spans upserted by id,
 * events and checkpoints inserted once (a retried write changes nothing), and runs' ends (only
 * while a run is live, so a retried end changes nothing either). It is atomic, so a checkpoint is
 * never stored without the events that came before it, nor a run's end without its last events.
 */
const WRITE_SQL = `WITH r AS (
  INSERT INTO runs (${RUN_NAMES.join(", ")})
  SELECT ${RUN_NAMES.join(", ")} FROM jsonb_to_recordset($4::jsonb) AS x(${RUN_COLUMNS})
  ON CONFLICT (id) DO NOTHING
  RETURNING 1
), s AS (
  INSERT INTO spans (${SPAN_NAMES.join(", ")})
  SELECT ${SPAN_NAMES.join(", ")} FROM jsonb_to_recordset($1::jsonb) AS x(${SPAN_COLUMNS})
  ON CONFLICT (id) DO UPDATE SET ${SPAN_UPDATES}
  RETURNING 1
), e AS (
  INSERT INTO run_events (run_id, seq, type, data)
  SELECT run_id, seq, type, data FROM jsonb_to_recordset($2::jsonb) AS x(run_id text, seq int, type text, data jsonb)
  ON CONFLICT DO NOTHING
  RETURNING 1
), c AS (
  INSERT INTO block_checkpoints (run_id, key, data, sealed)
  SELECT run_id, key, data, sealed FROM jsonb_to_recordset($3::jsonb) AS x(run_id text, key text, data jsonb, sealed text)
  ON CONFLICT DO NOTHING
  RETURNING 1
), d AS (
  UPDATE runs SET ${END_UPDATES}
  FROM jsonb_to_recordset($5::jsonb) AS x(${END_COLUMNS})
  WHERE runs.id = x.id AND runs.status IN ('running', 'paused')
  RETURNING runs.id
)
SELECT (SELECT count(*) FROM s)::int AS spans, (SELECT count(*) FROM e)::int AS events, (SELECT count(*) FROM c)::int AS checkpoints,
  (SELECT coalesce(json_agg(id), '[]'::json) FROM d) AS ended`;

function spanRow(span: SpanRecord): Record<string, unknown> {
  const usage = span.usage ? usageToColumns(span.usage) : NO_USAGE_COLUMNS;
  return {
    id: span.id,
    run_id: span.runId,
    parent_id: span.parentId,
    kind: span.kind,
    block_id: span.blockId,
    block_name: span.blockName,
    block_type: span.blockType,
    name: span.name ?? null,
    model: span.model ?? null,
    status: span.status,
    started_at: span.startedAt,
    ended_at: span.endedAt ?? null,
    duration_ms: span.durationMs === undefined ? null : Math.round(span.durationMs),
    input: span.input ?? null,
    output: span.output ?? null,
    error: span.error ?? null,
    iteration: span.iteration ?? null,
    attempt: span.attempt ?? null,
    worker: span.worker ?? null,
    reused_from: span.reusedFrom ?? null,
    simulated: span.simulated ?? null,
    price: span.price ?? null,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    cached_prompt_tokens: usage.cachedPromptTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens,
    cost_input: usage.costInput,
    cost_output: usage.costOutput,
    cost_total: usage.costTotal,
    cost_reasoning: usage.costReasoning,
    unpriced: usage.unpriced,
    estimated: usage.estimated,
  };
}

/**
 * Stores what runs report, with group commit: while one write is in flight, everything that
 * arrives (from every run of the process) waits and goes in the next one. A busy process makes a
 * few writes per tick instead of several per block, and a write's caller (a checkpoint that must
 * be durable before the next block starts) waits one round trip at most behind another.
 */
export class RunWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Runs with a batch in flight. */
  private readonly busyRuns = new Set<string>();
  private pool: pg.Pool | undefined;
  private named = true;

  /**
   * `url`: a PostgreSQL connection string of the same database. The writer then keeps a small pool
   * of its own and a prepared statement on each connection (no parse and plan per write), with up
   * to three writes in flight. Without one it writes through Prisma, one at a time.
   */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly url?: string,
    /** The embedded database: every connection is the same session. */
    private readonly shared = false,
  ) {}

  /** The embedded database runs one statement at a time anyway: one connection, whose named statement stays prepared. */
  private get maxInFlight(): number {
    return this.url && !this.shared ? 3 : 1;
  }

  write(write: RunWrite): Promise<RunWriteResult> {
    return new Promise<RunWriteResult>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (this.inFlight < this.maxInFlight) void this.drain();
    });
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  private async drain(): Promise<void> {
    this.inFlight += 1;
    try {
      for (;;) {
        const batch = this.takeBatch();
        if (batch.length === 0) break;
        const runs = new Set(batch.map((pending) => pending.write.runId));
        for (const runId of runs) this.busyRuns.add(runId);
        try {
          const ended = await this.store(batch.map((pending) => pending.write));
          for (const pending of batch) pending.resolve({ ended: ended.has(pending.write.runId) });
        } catch (error) {
          // One bad write must not fail the others: when the batch fails, each is tried alone. Not when the database
          // is unreachable: each would fail the same way, and the callers retry (run-recorder.ts).
          if (batch.length === 1 || isDatabaseUnreachable(error)) for (const pending of batch) pending.reject(error);
          else
            for (const pending of batch)
              await this.store([pending.write]).then(
                (ended) => pending.resolve({ ended: ended.has(pending.write.runId) }),
                pending.reject,
              );
        } finally {
          for (const runId of runs) this.busyRuns.delete(runId);
        }
        // Writes held back behind this batch may go now, in a batch of their own.
        if (this.queue.length > 0 && this.inFlight < this.maxInFlight) void this.drain();
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * Everything waiting, except writes of a run that has a batch in flight: a run's writes land in
   * the order they were made (a span's later state must not be overwritten by an earlier one).
   */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const held: Pending[] = [];
    const heldRuns = new Set<string>();
    for (const pending of this.queue) {
      const runId = pending.write.runId;
      if (this.busyRuns.has(runId) || heldRuns.has(runId)) {
        held.push(pending);
        heldRuns.add(runId);
      } else batch.push(pending);
    }
    this.queue = held;
    return batch;
  }

  private openPool(url: string): pg.Pool {
    const pool = new pg.Pool({
      connectionString: url,
      max: this.maxInFlight,
      ...(this.shared ? { idleTimeoutMillis: 0 } : {}),
    });
    survivePoolErrors(pool, "run writer");
    return pool;
  }

  /** Stores `writes` in one statement; answers the runs whose end it applied. */
  private async store(writes: readonly RunWrite[]): Promise<Set<string>> {
    const spans = new Map<string, Record<string, unknown>>();
    const events: Array<Record<string, unknown>> = [];
    const checkpoints: Array<Record<string, unknown>> = [];
    const runs: RunInsertRow[] = [];
    const ends: RunEndRow[] = [];
    for (const write of writes) {
      if (write.run) runs.push(write.run);
      if (write.end) ends.push(write.end);
      for (const span of write.spans ?? []) spans.set(span.id, spanRow(span));
      for (const { seq, event } of write.events ?? []) {
        const { type, ...data } = event;
        events.push({ run_id: write.runId, seq, type, data });
      }
      for (const checkpoint of write.deferred ?? []) checkpoints.push({ run_id: write.runId, ...checkpoint });
      if (write.checkpoint) checkpoints.push({ run_id: write.runId, ...write.checkpoint });
    }
    if (spans.size === 0 && events.length === 0 && checkpoints.length === 0 && runs.length === 0 && ends.length === 0)
      return new Set();
    const values = [spans.values(), events, checkpoints, runs, ends].map((rows) => JSON.stringify([...rows]));
    try {
      let answer: Array<{ ended: unknown }>;
      if (this.url) {
        this.pool ??= this.openPool(this.url);
        // Prepared once per connection. The embedded database is one session for every connection: a new connection
        // would prepare the name again and be refused (42P05), so there it goes unnamed from then on.
        const named = this.named;
        try {
          answer = (
            await this.pool.query(
              named ? { name: "trellis_run_write", text: WRITE_SQL, values } : { text: WRITE_SQL, values },
            )
          ).rows;
        } catch (error) {
          if (!(named && (error as { code?: string }).code === "42P05")) throw error;
          this.named = false;
          answer = (await this.pool.query({ text: WRITE_SQL, values })).rows;
        }
      } else answer = await this.prisma.$queryRawUnsafe(WRITE_SQL, ...values);
      const ended = answer[0]?.ended;
      return new Set(
        Array.isArray(ended) ? (ended as string[]) : typeof ended === "string" ? (JSON.parse(ended) as string[]) : [],
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/foreign key/i.test(message)) {
        // A new run's workflow was deleted as it started; anything else names a run that is gone.
        if (runs.length > 0)
          throw new NotFoundError("Workflow", [...new Set(runs.map((run) => String(run.workflow_id)))].join(", "));
        throw new NotFoundError("Run", [...new Set(writes.map((write) => write.runId))].join(", "));
      }
      throw error;
    }
  }
}

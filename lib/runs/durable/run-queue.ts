import "server-only";
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";

/**
 * The durable run queue, on DBOS Transact (docs/ARCHITECTURE.md, "Durable runs"). A run is one
 * DBOS workflow whose id is the run's id, on one queue partitioned by workspace: DBOS stores it,
 * hands it to one worker at a time within the per-process and per-workspace limits, sweeping the
 * workspaces' partitions in random order so one workspace's flood cannot starve another. What a
 * run does inside (its blocks and their checkpoints) is Trellis's own: DBOS replays steps by call
 * order, and a workflow's blocks finish in an order that differs from run to run.
 */

export const RUN_QUEUE = "trellis-runs";
const WORKFLOW_NAME = "trellisRun";
const APPLICATION = "trellis";
/** Every process must run the same version: DBOS hands a workflow only to executors of its version. */
const APPLICATION_VERSION = "trellis-runs-1";

export interface RunQueueLimits {
  /** Runs one process executes at once. */
  perProcess: number;
  /** Runs one workspace executes at once, across every process. */
  perWorkspace: number;
  /** How often an idle worker looks for queued runs. */
  pollMs: number;
}

export interface RunQueue {
  /**
   * Hands a stored run to the queue; handing the same run twice is harmless. `attempt` names a
   * later attempt (a run going on after a pause), which is a new DBOS workflow of the same run.
   */
  enqueue(runId: string, workspaceId: string, attempt?: string): Promise<void>;
  /** Takes a queued run off the queue (a run already executing is stopped through the run bus). */
  dequeue(runId: string): Promise<void>;
  /** Puts runs a dead process had taken back on the queue, for any worker. */
  requeue(runIds: string[]): Promise<void>;
  /** DBOS workflows (run attempts) still counted as taken by these processes. */
  pendingOf(workers: string[]): Promise<Array<{ workflowId: string; runId: string }>>;
  close(): Promise<void>;
}

/** Options common to both kinds of process. */
interface QueueConnection {
  /** A PostgreSQL connection string (the embedded database serves one). */
  url: string;
  /**
   * The embedded database is one PGlite session shared by every connection: a session setting
   * made by one (DBOS's idle-transaction timeout) applies to all, and a notification reaches only
   * the connection that sent it, so DBOS polls instead of listening.
   */
  embedded: boolean;
}

function clientOptions(connection: QueueConnection) {
  return {
    systemDatabaseUrl: connection.url,
    applicationName: APPLICATION,
    ...(connection.embedded ? { systemDatabaseIdleTransactionTimeoutMs: 0 } : {}),
  };
}

class ClientQueue implements RunQueue {
  constructor(private readonly client: DBOSClient) {}

  async enqueue(runId: string, workspaceId: string, attempt?: string): Promise<void> {
    await this.client.enqueue(
      {
        queueName: RUN_QUEUE,
        workflowName: WORKFLOW_NAME,
        workflowID: attempt === undefined ? runId : `${runId}/${attempt}`,
        queuePartitionKey: workspaceId,
        appVersion: APPLICATION_VERSION,
        applicationName: APPLICATION,
      },
      runId,
      workspaceId,
    );
  }

  async dequeue(runId: string): Promise<void> {
    // Cancelling a workflow DBOS does not know (a run stored before its hand-over) changes nothing; anything else is a real failure.
    await this.client.cancelWorkflow(runId);
  }

  async requeue(runIds: string[]): Promise<void> {
    if (runIds.length > 0) await this.client.resumeWorkflows(runIds, { queueName: RUN_QUEUE });
  }

  async pendingOf(workers: string[]): Promise<Array<{ workflowId: string; runId: string }>> {
    if (workers.length === 0) return [];
    const pending = await this.client.listWorkflows({ executorId: workers, status: "PENDING" });
    return pending.map((workflow) => ({ workflowId: workflow.workflowID, runId: workflow.workflowID.split("/")[0]! }));
  }

  async close(): Promise<void> {
    await this.client.destroy();
  }
}

/** Any number fixed for Trellis: the session advisory lock that lets one process at a time migrate DBOS's tables. */
const MIGRATION_LOCK = "7302841965120339";

/**
 * Creates or updates DBOS's tables, one process at a time. DBOS's own migration takes no lock, and
 * two processes starting together on a new database deadlock in it (CREATE INDEX CONCURRENTLY),
 * which kills one of them. The lock is tried, not waited for: a session waiting in a statement
 * would itself be a transaction the other process's CREATE INDEX CONCURRENTLY waits for.
 * Afterwards DBOS.launch finds its tables current and changes nothing. A process that only hands
 * runs over migrates too: it may be the first to start on a new database.
 */
async function migrateQueueTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    while (
      !(await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS locked", [MIGRATION_LOCK]))
        .rows[0]?.locked
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
    await DBOS.migrate(url);
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => {});
  }
}

/** A process that only serves HTTP: it stores and hands over runs, and never executes one. */
export async function connectRunQueue(connection: QueueConnection): Promise<RunQueue> {
  await migrateQueueTables(connection.url);
  return new ClientQueue(await DBOSClient.create(clientOptions(connection)));
}

/**
 * A process that executes runs: DBOS is launched with this process's own executor id (its worker
 * id), so that starting up never recovers another live process's runs, and `execute` is the
 * workflow every queued run becomes.
 */
export async function launchRunWorker(
  connection: QueueConnection & {
    workerId: string;
    limits: RunQueueLimits;
    execute: (runId: string, workspaceId?: string) => Promise<void>;
  },
): Promise<RunQueue> {
  const { limits } = connection;
  DBOS.setConfig({
    name: APPLICATION,
    systemDatabaseUrl: connection.url,
    executorID: connection.workerId,
    applicationVersion: APPLICATION_VERSION,
    logLevel: process.env.TRELLIS_DBOS_LOG_LEVEL ?? "warn",
    ...(connection.embedded ? { systemDatabaseIdleTransactionTimeoutMs: 0, useListenNotify: false } : {}),
  });
  // Recovery is Trellis's (worker leases), so DBOS's own attempt counter never gives up on a run.
  // The workspace comes with the run id so that the run waits for room in this process without reading it (run-slots.ts).
  DBOS.registerWorkflow(async (runId: string, workspaceId?: string) => connection.execute(runId, workspaceId), {
    name: WORKFLOW_NAME,
    maxRecoveryAttempts: 1_000_000,
  });
  await migrateQueueTables(connection.url);
  await DBOS.launch();
  // The queue's row is shared by every process; the last one started sets the limits.
  await DBOS.registerQueue(RUN_QUEUE, {
    workerConcurrency: limits.perProcess,
    partitionConcurrency: limits.perWorkspace,
    minPollingIntervalMs: limits.pollMs,
    onConflict: "always_update",
  });
  const client = await DBOSClient.create(clientOptions(connection));
  const queue = new ClientQueue(client);
  return {
    enqueue: (runId, workspaceId, attempt) => queue.enqueue(runId, workspaceId, attempt),
    dequeue: (runId) => queue.dequeue(runId),
    requeue: (runIds) => queue.requeue(runIds),
    pendingOf: (workers) => queue.pendingOf(workers),
    close: async () => {
      await queue.close();
      await DBOS.shutdown();
    },
  };
}

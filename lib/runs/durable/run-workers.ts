import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { isDatabaseUnreachable, survivePoolErrors, type Repositories } from "@/lib/db";
import type { RunService } from "../run-service";
import { runIntake } from "../run-intake";
import { HandOver } from "./hand-over";
import { PostgresRunBus } from "./postgres-run-bus";
import { LocalRunBus, SignalBatcher, type RunBus } from "./run-bus";
import { connectRunQueue, launchRunWorker, type RunQueue } from "./run-queue";
import { RunSlots } from "./run-slots";
import type { WorkerConfig } from "./worker-config";
import { processLogger } from "@/lib/observability";

/** A run whose process died this many times is failed rather than resumed again. */
export const MAX_RECOVERIES = 5;
/** A queued run older than this is handed to the queue again (its first hand-over may have been lost). */
const REQUEUE_AFTER_MS = 30_000;

export interface RunWorkersOptions {
  runs: RunService;
  repositories: Pick<Repositories, "runs" | "workers">;
  config: WorkerConfig;
  /** A PostgreSQL connection string (the embedded database serves one). */
  url: string;
  /** With the embedded database one process runs at a time: every other worker it knows of is dead. */
  singleProcess: boolean;
  workerId?: string;
}

export interface RunWorkers {
  workerId: string;
  /** How this process hears the others (the read cache follows it too). */
  bus: RunBus;
  /** Looks for dead workers and lost hand-overs now (the lease loop does it every lease / 3). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Connects this process to the durable queue and the other processes: the run bus, the queue (as
 * a worker when TRELLIS_WORKER is on), and the lease loop. Every lease / 3 a worker renews its
 * heartbeat, takes over the processes whose heartbeat is older than the lease (their runs go back
 * on the queue and resume from their checkpoints), and hands over again queued runs whose first
 * hand-over was lost. So a run whose worker died is resumed within about 1.33 x the lease.
 */
export async function startRunWorkers(options: RunWorkersOptions): Promise<RunWorkers> {
  const { runs, repositories, config, url } = options;
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const pool = options.singleProcess ? null : new pg.Pool({ connectionString: url, max: 2 });
  if (pool) survivePoolErrors(pool, "run bus");
  let bus: RunBus;
  if (pool) {
    const postgresBus = new PostgresRunBus(url, pool);
    await postgresBus.start();
    bus = postgresBus;
  } else bus = new LocalRunBus();
  const signals = new SignalBatcher(bus);
  let queue: RunQueue;
  if (config.execute) {
    await repositories.workers.register(workerId, hostname(), process.pid);
    queue = await launchRunWorker({
      url,
      embedded: options.singleProcess,
      workerId,
      limits: config.limits,
      execute: (runId, workspaceId) => runs.executeQueued(runId, workspaceId),
    });
  } else queue = await connectRunQueue({ url, embedded: options.singleProcess });
  const handOver = new HandOver(queue, runIntake());
  runs.distribute({
    queue,
    bus,
    signals,
    workerId,
    leaseMs: config.leaseMs,
    handOver: (runId, workspaceId) => handOver.submit(runId, workspaceId),
    ...(config.execute ? { slots: new RunSlots(config.limits.perProcess, config.limits.perWorkspace) } : {}),
  });

  const takeOver = async (dead: string[]) => {
    if (dead.length === 0) return;
    const workflows = await queue.pendingOf(dead);
    const pending = new Set(workflows.map((workflow) => workflow.runId));
    let recovered = 0;
    for (const run of await repositories.runs.listLiveOf(dead)) {
      if (run.parentRunId !== null) {
        // A workflow called as a tool ran inside its parent's block, which runs again as a whole.
        await runs.endLost(
          run,
          { status: "failed", error: { code: "worker_lost", message: "The process executing this run stopped." } },
          ["running", "paused"],
        );
      } else if (run.recoveries >= MAX_RECOVERIES) {
        pending.delete(run.id);
        await queue.dequeue(run.id);
        const message = `The process executing this run stopped ${run.recoveries + 1} times; it was not resumed again.`;
        await runs.endLost(run, { status: "failed", error: { code: "worker_lost", message } }, ["running", "paused"]);
      } else if (!pending.has(run.id)) {
        // No queue attempt of it was pending there: it executed at once where it was started (or its attempt was lost).
        // A new attempt through the queue takes it over from its checkpoints, as any other.
        await queue.enqueue(run.id, run.workspaceId, `recovery-${run.recoveries + 1}`);
        recovered += 1;
      }
    }
    const resumable = workflows
      .filter((workflow) => pending.has(workflow.runId))
      .map((workflow) => workflow.workflowId);
    if (resumable.length > 0) await queue.requeue(resumable);
    if (resumable.length + recovered > 0)
      processLogger().info(
        { workers: dead },
        `resuming ${pending.size + recovered} run(s) of stopped process(es) ${dead.join(", ")}`,
      );
  };

  /** When a sweep last failed because the database was unreachable. */
  let unreachableAt = 0;
  const sweep = async () => {
    if (config.execute && !(await repositories.workers.heartbeat(workerId))) {
      // Another process judged this one dead (a long pause): its runs were resumed elsewhere. Rejoin.
      processLogger().warn({ workerId }, `worker ${workerId} lost its lease; registering again`);
      await repositories.workers.register(workerId, hostname(), process.pid);
    }
    // Back from an outage, every other process's heartbeat is as old as the outage: each gets a lease to renew
    // its own before anyone is judged dead, so that no live process's runs are taken over twice.
    if (Date.now() - unreachableAt > config.leaseMs)
      await takeOver(await repositories.workers.claimDead(config.leaseMs, workerId));
    for (const run of await repositories.runs.listQueuedBefore(new Date(Date.now() - REQUEUE_AFTER_MS), 100))
      await queue.enqueue(run.id, run.workspaceId);
    // Asks of parked runs whose deadline passed while no process watched them (a restart) time out now.
    await runs.asks.timeOutDue();
  };

  if (config.execute && options.singleProcess) await takeOver(await repositories.workers.claimAllBut(workerId));
  let sweeping: Promise<void> = Promise.resolve();
  const timer = config.execute
    ? setInterval(
        () => {
          sweeping = sweeping.then(sweep).catch((error: unknown) => {
            if (isDatabaseUnreachable(error)) {
              // Logged once per outage; the sweep goes on at its pace and succeeds once the database is back.
              if (unreachableAt === 0 || Date.now() - unreachableAt > config.leaseMs)
                processLogger().warn("worker lease sweep: the database is unreachable; retrying");
              unreachableAt = Date.now();
            } else processLogger().error({ err: error }, "worker lease sweep failed");
          });
        },
        Math.max(250, Math.floor(config.leaseMs / 3)),
      )
    : undefined;
  timer?.unref();

  return {
    workerId,
    bus,
    sweep: () => (sweeping = sweeping.then(sweep)),
    async stop() {
      if (timer) clearInterval(timer);
      await sweeping.catch(() => {});
      await signals.flush();
      await handOver.flush();
      await queue.close().catch(() => {});
      await bus.close();
      await pool?.end().catch(() => {});
      // With runs still executing the row stays: its lease runs out and another process resumes them.
      if (config.execute && runs.liveRunIds().length === 0) await repositories.workers.remove(workerId).catch(() => {});
    },
  };
}

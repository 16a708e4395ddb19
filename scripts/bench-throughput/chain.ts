/**
 * Per-block checkpoint overhead: a chain of `blocks` blocks (start -> condition x (blocks - 2) ->
 * response) executed in this process through `executeAttempt` (what a worker runs for a queued run)
 * over the real repositories, with and without durable checkpoints (`durable: true` adds the
 * CheckpointStore: the recorder's flush and a `block_checkpoints` row per finished block before the
 * next block starts). Conditions with only an else branch are the cheapest real block: the handler
 * returns its branch and evaluates nothing. Runs alternate between the two modes so that drift on
 * a busy machine hits both alike; the figure is (median with - median without) / blocks.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { lookupBlockType } from "@/blocks";
import { lookupHandlers } from "@/blocks/handlers";
import { createPrisma, createRepositories, type Database } from "@/lib/db";
import { applyMigrationsToPostgres, migrateDatabase } from "@/lib/db/migrate/apply-migrations.mjs";
import { executeAttempt, type ExecutionDependencies } from "@/lib/runs/durable/run-execution";
import { createRuntime } from "@/lib/runtime/runtime";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";
import { median } from "./load";

export interface ChainOptions {
  backend: "postgres" | "embedded";
  /** PostgreSQL: the (fresh, empty) database to use. */
  databaseUrl?: string;
  /** Embedded: a fresh data directory. */
  dataDir?: string;
  blocks: number;
  runs: number;
  log: (line: string) => void;
}

export interface ChainResult {
  backend: "postgres" | "embedded";
  blocks: number;
  runs: number;
  withCheckpointsMs: number;
  withoutCheckpointsMs: number;
  /** (median with - median without) / blocks. */
  overheadMsPerBlock: number;
  /** Median without checkpoints / blocks: everything else a block costs (spans, events, engine). */
  baseMsPerBlock: number;
  checkpointRowsPerRun: number;
  samples: { with: number[]; without: number[] };
}

export function chainDocument(blocks: number) {
  const middle = Array.from({ length: blocks - 2 }, (_, index) => ({
    id: `c${index}`,
    type: "condition",
    name: `Step ${index}`,
    position: { x: 200 * (index + 1), y: 0 },
    config: { branches: [{ id: "next" }] },
  }));
  const ids = ["start", ...middle.map((block) => block.id), "response"];
  return {
    name: `Chain of ${blocks}`,
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
      ...middle,
      {
        id: "response",
        type: "response",
        name: "Response",
        position: { x: 200 * (blocks - 1), y: 0 },
        config: { data: { done: true } },
      },
    ],
    edges: ids.slice(1).map((target, index) => ({
      id: `e${index}`,
      source: ids[index]!,
      target,
      ...(index === 0 ? {} : { sourceHandle: "branch:next" }),
    })),
  };
}

async function openDatabase(options: ChainOptions): Promise<Database> {
  if (options.backend === "postgres") {
    if (!options.databaseUrl) throw new Error("the PostgreSQL chain needs a database URL");
    await applyMigrationsToPostgres(options.databaseUrl);
    return createPrisma({ kind: "postgres", url: options.databaseUrl });
  }
  if (!options.dataDir) throw new Error("the embedded chain needs a data directory");
  const databaseDir = path.join(options.dataDir, "pglite");
  mkdirSync(options.dataDir, { recursive: true });
  await migrateDatabase({ kind: "embedded", dataDir: options.dataDir, databaseDir });
  // As the app opens it: PGlite in this process, served on its private socket.
  const database = createPrisma({ kind: "embedded", databaseDir });
  await database.ready;
  return database;
}

export async function chainOverhead(options: ChainOptions): Promise<ChainResult> {
  const { document, issues } = parseWorkflowDocument(chainDocument(options.blocks));
  if (issues.length > 0) throw new Error(`the chain workflow has issues: ${JSON.stringify(issues.slice(0, 3))}`);
  const database = await openDatabase(options);
  let repositoriesToClose: ReturnType<typeof createRepositories> | undefined;
  try {
    const { prisma } = database;
    const repositories = createRepositories(prisma, {
      secretKey: randomBytes(32),
      ...(database.url ? { url: database.url, backend: database.backend } : {}),
    });
    repositoriesToClose = repositories;
    const workspaceId = (await prisma.workspace.create({ data: { name: "bench" } })).id;
    const workflow = await repositories.workflows.create(workspaceId, document);
    const runtime = createRuntime({
      repositories,
      knowledgeSearch: async () => {
        throw new Error("the bench uses no knowledge base");
      },
    });
    // What the runtime's RunService does for every run (lib/runtime/runtime.ts).
    const deps: ExecutionDependencies = {
      repositories,
      async prepare(id) {
        const environment = await runtime.runEnvironment(id);
        const { handlers } = runtime.prepareHandlers(id, environment.providerEnv);
        return {
          lookupBlockType,
          lookupHandler: lookupHandlers(handlers),
          env: environment.workflowEnv,
          secrets: environment.masked,
        };
      },
    };
    let checkpointRows = 0;
    const once = async (durable: boolean): Promise<number> => {
      const run = await repositories.runs.create({
        workspaceId,
        workflowId: workflow.id,
        status: "running",
        input: {},
        document,
        worker: "bench",
      });
      const started = performance.now();
      const attempt = executeAttempt(deps, {
        run,
        workspaceId,
        document,
        depth: 0,
        signal: new AbortController().signal,
        worker: "bench",
        durable,
      });
      const stored = await attempt.done;
      const elapsed = performance.now() - started;
      if (stored.status !== "succeeded")
        throw new Error(`the chain run ${stored.status}: ${JSON.stringify(stored.error)}`);
      if (durable) {
        checkpointRows = await prisma.blockCheckpoint.count({ where: { runId: run.id } });
        if (checkpointRows < options.blocks - 1)
          throw new Error(`a durable chain run stored ${checkpointRows} checkpoints for ${options.blocks} blocks`);
      }
      return elapsed;
    };
    // Warm-up: one of each (JIT, connection pools, the first statements' plans).
    await once(false);
    await once(true);
    const samples = { with: [] as number[], without: [] as number[] };
    for (let index = 0; index < options.runs; index += 1) {
      // Alternating, and each pair in a different order, so neither mode always comes first.
      const order = index % 2 === 0 ? [false, true] : [true, false];
      for (const durable of order) {
        const ms = await once(durable);
        (durable ? samples.with : samples.without).push(ms);
        options.log(
          `    ${options.backend} run ${index + 1}/${options.runs} ${durable ? "with" : "without"} checkpoints: ${ms.toFixed(0)} ms`,
        );
      }
    }
    const withMs = median(samples.with);
    const withoutMs = median(samples.without);
    const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
    return {
      backend: options.backend,
      blocks: options.blocks,
      runs: options.runs,
      withCheckpointsMs: round(withMs, 1),
      withoutCheckpointsMs: round(withoutMs, 1),
      overheadMsPerBlock: round((withMs - withoutMs) / options.blocks, 3),
      baseMsPerBlock: round(withoutMs / options.blocks, 3),
      checkpointRowsPerRun: checkpointRows,
      samples: {
        with: samples.with.map((value) => round(value, 1)),
        without: samples.without.map((value) => round(value, 1)),
      },
    };
  } finally {
    await repositoriesToClose?.runWriter.close();
    await database.close();
  }
}

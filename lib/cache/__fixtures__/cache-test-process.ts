import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { callerOf, requestedWorkspace, workspaceAccess } from "@/lib/auth";
import { createRepositories, type PrismaClient, type Repositories } from "@/lib/db";
import type { TestDatabase } from "@/lib/db/test-database";
import { PrismaClient as GeneratedPrismaClient } from "@/lib/generated/prisma/client";
import { handleErrors, RequestError } from "@/lib/http/errors";
import { PostgresRunBus } from "@/lib/runs/durable/postgres-run-bus";
import { LocalRunBus, type RunBus } from "@/lib/runs/durable/run-bus";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import { createRuntime, type Runtime } from "@/lib/runtime/runtime";
import { readCacheGeneration } from "../cache-generation";
import { WorkspaceReadCache } from "../workspace-read-cache";

/**
 * One server process as far as the read cache goes: its own Prisma client (on PostgreSQL), its
 * own cache following its own run bus, its own runtime; requests reach the run endpoints the way
 * route() hands them over (the API key authenticated, the workspace and role found).
 */
export interface CacheTestProcess {
  prisma: PrismaClient;
  repositories: Repositories;
  cache: WorkspaceReadCache;
  bus: RunBus;
  runtime: Runtime;
  endpoints: RunEndpoints;
  /** Statements this process's Prisma client sent (PostgreSQL only; the embedded database shares the test's client). */
  statements: { count: number };
  /** POST /api/workflows/:id/execute with `{ wait: true }` and the key, answered as route() answers it. */
  execute(key: string, workflowId: string, input?: Record<string, unknown>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * On PostgreSQL a process with a client and a LISTEN connection of its own. The embedded database
 * is one process by design: there the second "process" shares the client and hears nothing from
 * the first (its bus is its own), which leaves the API key's own read as its only freshness.
 */
export async function startCacheTestProcess(
  database: TestDatabase,
  options: { follow?: boolean } = {},
): Promise<CacheTestProcess> {
  const statements = { count: 0 };
  let prisma: PrismaClient = database.prisma;
  let pool: pg.Pool | null = null;
  let bus: RunBus;
  if (database.backend === "postgres" && database.url) {
    const counted = new GeneratedPrismaClient({
      adapter: new PrismaPg({ connectionString: database.url }),
      log: [{ emit: "event", level: "query" }],
    });
    counted.$on("query", () => (statements.count += 1));
    prisma = counted;
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const postgresBus = new PostgresRunBus(database.url, pool, 5_000, () => {});
    await postgresBus.start();
    bus = postgresBus;
  } else bus = new LocalRunBus();
  const repositories = createRepositories(prisma, { secretKey: database.secretKey });
  const cache = new WorkspaceReadCache({ generationOf: (workspaceId) => readCacheGeneration(prisma, workspaceId) });
  // A cache that follows no bus serves nothing: the process reads everything from the database, as before the cache.
  const unfollow = options.follow === false ? () => {} : cache.follow(bus);
  const runtime = createRuntime({
    repositories,
    readCache: cache,
    processEnv: () => undefined,
    knowledgeSearch: async () => {
      throw new Error("knowledge search is not part of these tests");
    },
  });
  const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: runtime.repositories }));
  const execute = handleErrors(async (key: string, workflowId: string, input: Record<string, unknown> = {}) => {
    const request = new Request(`http://localhost/api/workflows/${workflowId}/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ input, wait: true }),
    });
    const params = { id: workflowId };
    const caller = await callerOf(request, { prisma, readCache: cache });
    if (!caller) throw new RequestError("unauthenticated", "no credentials");
    const member = {
      ...caller,
      workspace: await workspaceAccess(repositories.workspaces, caller, requestedWorkspace(request, params)),
    };
    return endpoints.execute(request, params, member);
  });
  return {
    prisma,
    repositories,
    cache,
    bus,
    runtime,
    endpoints,
    statements,
    execute,
    async close() {
      unfollow();
      await bus.close();
      await pool?.end();
      if (prisma !== database.prisma) await prisma.$disconnect();
    },
  };
}

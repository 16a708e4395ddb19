/**
 * The fault suite's cluster (issue 40): a private PostgreSQL server (lib/db/test-private-postgres.ts)
 * and three processes of the built app on it, as the README describes for scaling out: a web
 * process that also executes runs, a worker (`scripts/worker.ts`) and a web-only process
 * (TRELLIS_WORKER=off). The first is started as every load case starts the app (startApp); the
 * other two share its settings and secret key.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startApp, type RunningApp } from "../../scripts/bench-throughput/app";
import { freePort, killAllNow, start, stop, waitUntil, type Managed } from "../../scripts/bench-throughput/processes";
import { startPrivatePostgres, type PrivatePostgres } from "@/lib/db/test-private-postgres";

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

export interface OutageCluster {
  database: PrivatePostgres;
  /** A read-only view of the database for the checks; its client reconnects after each outage. */
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  /** The web process that also executes runs (the owner's API key works on both web processes). */
  app: RunningApp;
  webOnlyUrl: string;
  processes: { web: Managed; worker: Managed; webOnly: Managed };
  close(): Promise<void>;
}

export async function startOutageCluster(echo = process.env.LOAD_ECHO === "1"): Promise<OutageCluster> {
  const database = await startPrivatePostgres();
  const dataDir = mkdtempSync(path.join(tmpdir(), "trellis-load-outage-"));
  const secretKey = randomBytes(32).toString("hex");
  const cleanUp = async () => {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: RunningApp;
  try {
    app = await startApp({
      setup: "pg-single",
      port: await freePort(),
      dataDir,
      databaseUrl: database.url,
      echo,
      env: { TRELLIS_SECRET_KEY: secretKey },
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  process.once("exit", killAllNow);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: dataDir,
    TRELLIS_SECRET_KEY: secretKey,
  };
  for (const name of ["NODE_OPTIONS", "TRELLIS_TEST_PGLITE_TEMPLATE", "PORT", "HOST"]) delete env[name];
  env.DATABASE_URL = database.url;
  const web = app.processes[0]!;
  const worker = start(
    "outage: worker",
    process.execPath,
    [TSX_CLI, "--conditions=react-server", path.join(ROOT, "scripts/worker.ts")],
    env,
    { echo },
  );
  const port = await freePort();
  const webOnly = start(
    "outage: web-only",
    process.execPath,
    [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(port)],
    { ...env, TRELLIS_WORKER: "off" },
    { echo },
  );
  const webOnlyUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    for (const managed of [webOnly, worker]) await stop(managed);
    await app.stop();
    await cleanUp();
  };
  try {
    await waitUntil(
      "the worker to join the queue",
      async () => worker.log.some((line) => line.includes("is executing runs")),
      [web, worker],
      120_000,
    );
    await waitUntil(
      "the web-only process",
      async () => (await fetch(`${webOnlyUrl}/api/health`).catch(() => null))?.status === 200,
      [webOnly],
      120_000,
    );
  } catch (error) {
    await close();
    throw error;
  }
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: database.url });
    client.on("error", () => {});
    await client.connect();
    try {
      return (await client.query<T>(sql, values)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  };
  return { database, query, app, webOnlyUrl, processes: { web, worker, webOnly }, close };
}

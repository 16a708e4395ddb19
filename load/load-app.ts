/**
 * One app per load case: the built app started as an operator starts it (the throughput bench's
 * startApp), on a fresh embedded database in a temporary DATA_DIR, or on a fresh database of the
 * PostgreSQL server at LOAD_DATABASE_URL when that is set. `close()` stops it and removes what it
 * made; call it in afterAll so a failing case leaves nothing running.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startApp, type RunningApp } from "../scripts/bench-throughput/app";
import { freePort, killAllNow, type Managed } from "../scripts/bench-throughput/processes";

export interface LoadApp extends RunningApp {
  /** The `next start` process: its RSS is the server's memory, sandbox threads and the embedded database included. */
  webPid: number;
  /** How many lines the web process has printed so far: a mark for `webLogSince`. */
  webLogMark(): number;
  /** What the web process printed after `mark` (up to its last 5,000 lines). */
  webLogSince(mark: number): string[];
  /** "embedded" or "PostgreSQL", for the printed figures. */
  database: string;
  close(): Promise<void>;
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const MAX_LOG_LINES = 5_000;

/** The bench keeps 200 lines, too few to tell what a case printed; this keeps more, and counts them. */
function collectLines(managed: Managed): { lines: string[]; total: number } {
  const log = { lines: [] as string[], total: 0 };
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      log.lines.push(line);
      log.total += 1;
      if (log.lines.length > MAX_LOG_LINES) log.lines.shift();
    }
  };
  managed.child.stdout?.on("data", collect);
  managed.child.stderr?.on("data", collect);
  return log;
}

/** Starts the app for the case `name` with extra settings `env`; fails when it cannot start or run its first run. */
export async function startLoadApp(name: string, env: Record<string, string> = {}): Promise<LoadApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `trellis-load-${name}-`));
  const serverUrl = process.env.LOAD_DATABASE_URL;
  const databaseName = `trellis_load_${name.replace(/\W/g, "_")}_${process.pid}`;
  let databaseUrl: string | undefined;
  if (serverUrl) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await adminQuery(serverUrl, `CREATE DATABASE ${databaseName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const removeData = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (serverUrl) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => {});
  };

  let app: RunningApp;
  try {
    app = await startApp({
      setup: serverUrl ? "pg-single" : "embedded",
      port: await freePort(),
      dataDir,
      databaseUrl,
      echo: process.env.LOAD_ECHO === "1",
      // LOAD_PROFILE_DIR: the web process writes a CPU profile there when it stops (to see what held the loop).
      ...(process.env.LOAD_PROFILE_DIR ? { profileDir: process.env.LOAD_PROFILE_DIR } : {}),
      env,
    });
  } catch (error) {
    await removeData();
    throw error;
  }
  const web = app.processes[0]!;
  const log = collectLines(web);
  // A vitest worker that dies without afterAll must not leave a server holding a port and memory.
  process.once("exit", killAllNow);
  return {
    ...app,
    webPid: web.child.pid!,
    webLogMark: () => log.total,
    webLogSince: (mark) => log.lines.slice(Math.max(0, log.lines.length - (log.total - mark))),
    database: serverUrl ? "PostgreSQL" : "embedded",
    close: async () => {
      await app.stop();
      await removeData();
    },
  };
}

/** The line a human copies: `[load] <case>: name=value, ...`. CI prints every such line. */
export function report(title: string, figures: object): void {
  const parts = Object.entries(figures).map(
    ([name, value]) => `${name}=${typeof value === "object" ? JSON.stringify(value) : String(value)}`,
  );
  console.log(`[load] ${title}: ${parts.join(", ")}`);
}

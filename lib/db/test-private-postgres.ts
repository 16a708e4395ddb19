/**
 * A PostgreSQL server of a test's own, for outage tests (issue 40): stopped, started and cut off
 * at will without touching the shared server on 5432. Test support only; a fault suite (a load
 * test, its own script) reuses it.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { applyMigrationsToPostgres } from "./migrate/apply-migrations.mjs";

const run = promisify(execFile);

/** Where Debian puts the server's programs; TRELLIS_PG_BIN overrides it. */
export function postgresBinDir(): string | undefined {
  const candidates = [
    process.env.TRELLIS_PG_BIN,
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/15/bin",
  ];
  return candidates.find((dir): dir is string => Boolean(dir) && existsSync(path.join(dir!, "pg_ctl")));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PrivatePostgres {
  /** A connection string of the migrated database `trellis` (password given, so SCRAM never asks). */
  url: string;
  port: number;
  /** Stops the server (fast: every session is ended at once); connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server, waits `downMs`, starts it again; answers when it accepts connections. */
  restart(downMs?: number): Promise<void>;
  /**
   * Ends every session of the database and refuses new ones for `downMs` (the server stays up and
   * answers "not currently accepting connections"), then lets them in again.
   */
  blockConnections(downMs: number): Promise<void>;
  /** Stops the server and removes its files. */
  destroy(): Promise<void>;
}

/**
 * initdb in a temporary folder, a server on a free loopback port with its socket in that folder,
 * and a `trellis` database with Trellis's migrations applied. Needs the PostgreSQL server
 * programs (postgresBinDir()); runs as root by starting the server as the `postgres` user when
 * the process is root.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error(
      "No PostgreSQL server programs found (install postgresql, or set TRELLIS_PG_BIN to the folder holding pg_ctl)",
    );
  const root = mkdtempSync(path.join(os.tmpdir(), "trellis-pg-"));
  const dataDir = path.join(root, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: the server runs as `postgres`, which then owns the folder.
  const exec = async (program: string, args: string[]) => {
    const command = path.join(bin, program);
    if (asRoot) await run("runuser", ["-u", "postgres", "--", command, ...args]);
    else await run(command, args);
  };
  if (asRoot) await run("chown", ["postgres", root]);
  await exec("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    exec("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(root, "server.log"), "-w", "start"]);
  const stop = () => exec("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
  await start();
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/trellis`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    client.on("error", () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await admin((client) => client.query("CREATE DATABASE trellis"));
  await applyMigrationsToPostgres(url);
  let running = true;
  const server: PrivatePostgres = {
    url,
    port,
    async stop() {
      if (!running) return;
      await stop();
      running = false;
    },
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async restart(downMs = 0) {
      await server.stop();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await server.start();
    },
    async blockConnections(downMs) {
      await admin(async (client) => {
        await client.query("ALTER DATABASE trellis ALLOW_CONNECTIONS false");
        await client.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'trellis' AND pid <> pg_backend_pid()",
        );
      });
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await admin((client) => client.query("ALTER DATABASE trellis ALLOW_CONNECTIONS true"));
    },
    async destroy() {
      await stop().catch(() => {});
      running = false;
      rmSync(root, { recursive: true, force: true });
    },
  };
  return server;
}

import { PGlite } from "@electric-sql/pglite";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Database } from "./client";
import { applyMigrationsToPGlite, migrateDatabase } from "./migrate/apply-migrations.mjs";
import { createTestDatabase } from "./test-database";
import { TEST_ENV } from "./test-env";

/** The directory the socket lives in, from a served database's `url`. */
function socketDir(url: string): string {
  const host = new URL(url).searchParams.get("host");
  if (!host) throw new Error(`no socket directory in ${url}`);
  return host;
}

/** A migrated in-memory PGlite served like the app's, whatever backend the test run uses. */
async function openServed(): Promise<Database> {
  const template = process.env[TEST_ENV.pgliteTemplate];
  if (template) return createPrisma({ kind: "memory", template: new Blob([readFileSync(template)]), serve: true });
  const client = new PGlite();
  await applyMigrationsToPGlite(client);
  return createPrisma({ kind: "pglite", client, serve: true });
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

function settledWithin<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

describe("the app's embedded database (files in DATA_DIR)", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-served-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("is served on a private socket: Prisma (without awaiting ready) and pg reach the same data, and close() cleans up", async () => {
    const databaseDir = path.join(dataDir, "pglite");
    await migrateDatabase({ kind: "embedded", dataDir, databaseDir });
    const database = createPrisma({ kind: "embedded", databaseDir });
    expect(database.backend).toBe("embedded");
    const url = database.url;
    if (!url) throw new Error("a served database has a url");
    const dir = socketDir(url);
    expect(path.basename(dir)).toMatch(/^trellis-db-/);

    // Issued before the server listens: Prisma's connection waits for `ready` instead of failing.
    const created = await database.prisma.workspace.create({ data: { name: "Served" } });
    await database.ready;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(dir, ".s.PGSQL.5432"))).toBe(true);

    const client = await connect(url);
    try {
      const { rows } = await client.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [created.id]);
      expect(rows).toEqual([{ name: "Served" }]);
    } finally {
      await client.end();
    }

    await database.close();
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${databaseDir}.lock`)).toBe(false);
    // The data is on disk: the next start (a new process in real life) sees it.
    const reopened = createPrisma({ kind: "embedded", databaseDir });
    try {
      expect(await reopened.prisma.workspace.findUnique({ where: { id: created.id } })).toMatchObject({
        name: "Served",
      });
    } finally {
      await reopened.close();
    }
  });
  it("runs PostgreSQL in a thread of its own: a long query leaves the server's event loop free", async () => {
    const databaseDir = path.join(dataDir, "threaded");
    await migrateDatabase({ kind: "embedded", dataDir, databaseDir });
    const database = createPrisma({ kind: "embedded", databaseDir });
    try {
      await database.ready;
      let longestStallMs = 0;
      let last = performance.now();
      const ticker = setInterval(() => {
        const now = performance.now();
        longestStallMs = Math.max(longestStallMs, now - last);
        last = now;
      }, 5);
      const started = performance.now();
      const rows = await database.prisma.$queryRawUnsafe<{ total: bigint }[]>(
        "SELECT sum(i) AS total FROM generate_series(1, 4000000) AS i",
      );
      const queryMs = performance.now() - started;
      clearInterval(ticker);
      expect(rows[0]?.total).toBe(8000002000000n);
      // On this thread the loop would stall for the whole query; in the thread, for a small part of it at most.
      expect(queryMs).toBeGreaterThan(50);
      expect(longestStallMs).toBeLessThan(queryMs / 2);
    } finally {
      await database.close();
    }
  });

  it("names the data directory when the thread cannot open it", async () => {
    const notADirectory = path.join(dataDir, "a-file");
    writeFileSync(notADirectory, "not a database");
    const database = createPrisma({ kind: "embedded", databaseDir: notADirectory });
    await expect(database.ready).rejects.toThrow(notADirectory);
    await database.close();
    expect(existsSync(`${notADirectory}.lock`)).toBe(false);
  });
});

describe("a served embedded database", () => {
  let database: Database;
  let url: string;

  beforeAll(async () => {
    database = await openServed();
    await database.ready;
    if (!database.url) throw new Error("a served database has a url");
    url = database.url;
    const setup = await connect(url);
    await setup.query("CREATE TABLE items (name text PRIMARY KEY, body text)");
    await setup.end();
  });
  afterAll(async () => {
    const dir = socketDir(url);
    await database.close();
    expect(existsSync(dir)).toBe(false);
  });

  it("keeps pg clients' transactions apart: no uncommitted reads, and one's rollback leaves the other's commit", async () => {
    const a = await connect(url);
    const b = await connect(url);
    try {
      const order: string[] = [];
      await a.query("BEGIN");
      await a.query("INSERT INTO items (name) VALUES ('a')");
      // B's transaction is issued while A's is open; it waits for the session, then runs whole.
      const bWork = (async () => {
        await b.query("BEGIN");
        order.push("b began");
        const seen = (await b.query<{ name: string }>("SELECT name FROM items ORDER BY name")).rows.map(
          (row) => row.name,
        );
        await b.query("INSERT INTO items (name) VALUES ('b')");
        await b.query("ROLLBACK");
        return seen;
      })();
      const seenByA = (await a.query<{ name: string }>("SELECT name FROM items ORDER BY name")).rows.map(
        (row) => row.name,
      );
      expect(seenByA).toEqual(["a"]);
      expect(await settledWithin(bWork, 100)).toBe(false);
      order.push("a committing");
      await a.query("COMMIT");
      expect(await bWork).toEqual(["a"]);
      expect(order).toEqual(["a committing", "b began"]);
      const { rows } = await a.query<{ name: string }>("SELECT name FROM items ORDER BY name");
      expect(rows.map((row) => row.name)).toEqual(["a"]);
    } finally {
      await a.query("DELETE FROM items");
      await Promise.all([a.end(), b.end()]);
    }
  });

  it("makes a Prisma query wait for a pg client's open transaction instead of running inside it", async () => {
    const a = await connect(url);
    try {
      await a.query("BEGIN");
      await a.query("INSERT INTO workspaces (id, name) VALUES ($1, 'from A')", [randomUUID()]);
      const fromPrisma = database.prisma.workspace.create({ data: { name: "from Prisma" } });
      expect(await settledWithin(fromPrisma, 200)).toBe(false);
      await a.query("ROLLBACK");
      const created = await fromPrisma;
      const names = (
        await database.prisma.workspace.findMany({ where: { name: { in: ["from A", "from Prisma"] } } })
      ).map((row) => row.name);
      expect(names).toEqual(["from Prisma"]);
      await database.prisma.workspace.delete({ where: { id: created.id } });
    } finally {
      await a.end();
    }
  });

  it("does not let clients' statements interleave when large parameters arrive in several socket reads", async () => {
    // Before the session-turn fix, a Parse from one connection could slip between another's Parse and
    // Bind (pglite-socket#1046): wrong statements bound, "invalid input syntax" errors.
    const body = "x".repeat(300_000);
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    try {
      await Promise.all(
        Array.from({ length: 6 }, async (_, worker) => {
          for (let i = 0; i < 8; i++) {
            const name = `w${worker}-${i}`;
            if (worker % 2 === 0) {
              const { rows } = await pool.query<{ name: string; length: number }>(
                "INSERT INTO items (name, body) VALUES ($1, $2) RETURNING name, length(body) AS length",
                [name, body],
              );
              expect(rows).toEqual([{ name, length: body.length }]);
            } else {
              const { rows } = await pool.query<{ n: number; s: string }>("SELECT $1::int AS n, $2::text AS s", [
                i,
                name,
              ]);
              expect(rows).toEqual([{ n: i, s: name }]);
            }
          }
        }),
      );
      expect((await pool.query<{ count: number }>("SELECT count(*)::int AS count FROM items")).rows[0]?.count).toBe(24);
    } finally {
      await pool.query("DELETE FROM items");
      await pool.end();
    }
  });

  it("rolls back what a departed client left open, mid-transaction or mid-batch, and serves the others", async () => {
    const a = await connect(url);
    a.on("error", () => {});
    await a.query("BEGIN");
    await a.query("INSERT INTO items (name) VALUES ('left in a transaction')");
    // Dropped without COMMIT, as a pool does with a broken client.
    (a as unknown as { connection: { stream: net.Socket } }).connection.stream.destroy();

    // A raw client that sends an extended-protocol batch without its Sync, then goes away.
    const raw = net.connect(path.join(socketDir(url), ".s.PGSQL.5432"));
    await new Promise<void>((resolve) => raw.once("connect", () => resolve()));
    raw.write(startupMessage());
    await new Promise<void>((resolve) => raw.once("data", () => resolve()));
    raw.write(
      Buffer.concat([
        frontendMessage("P", cString(""), cString("INSERT INTO items (name) VALUES ('left in a batch')"), int16(0)),
        frontendMessage("B", cString(""), cString(""), int16(0), int16(0), int16(0)),
        frontendMessage("E", cString(""), int32(0)),
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    raw.destroy();

    const b = await connect(url);
    try {
      const { rows } = await b.query<{ name: string }>("SELECT name FROM items");
      expect(rows).toEqual([]);
      expect((await database.prisma.workspace.count()) >= 0).toBe(true);
    } finally {
      await b.end();
    }
  });

  it("runs DBOS workflows", async () => {
    DBOS.setConfig({
      name: "trellis-test",
      systemDatabaseUrl: url,
      executorID: randomUUID(),
      applicationVersion: "test",
      // All clients share PGlite's one session, so DBOS's per-connection SET applies to everyone, and
      // PGlite 0.5 freezes the process when a transaction outlives that timeout (lib/db/README.md).
      systemDatabaseIdleTransactionTimeoutMs: 0,
      // A NOTIFY reaches the connection that sent it, not the listener (one session): DBOS would wait
      // 3 s for its self-test at launch and then poll anyway.
      useListenNotify: false,
    });
    const double = DBOS.registerWorkflow(
      async (input: number) => {
        const doubled = await DBOS.runStep(async () => input * 2, { name: "double" });
        return DBOS.runStep(async () => `result ${doubled + 1}`, { name: "add one" });
      },
      { name: "double-then-add-one" },
    );
    await DBOS.launch();
    try {
      const handle = await DBOS.startWorkflow(double)(20);
      expect(await handle.getResult()).toBe("result 41");
      const steps = await DBOS.listWorkflowSteps(handle.workflowID);
      expect(steps?.map((step) => step.name)).toEqual(["double", "add one"]);
      // Prisma and DBOS share the session without stepping on each other.
      expect(await database.prisma.workspace.count()).toBeGreaterThanOrEqual(0);
      const [setting] = await database.prisma.$queryRaw<
        { idle_in_transaction_session_timeout: string }[]
      >`SHOW idle_in_transaction_session_timeout`;
      expect(setting?.idle_in_transaction_session_timeout).toBe("0");
    } finally {
      await DBOS.shutdown();
    }
  });
});

describe("createTestDatabase({ serve: true })", () => {
  it("gives a url on either backend, and serves the embedded one", async () => {
    const database = await createTestDatabase({ serve: true });
    try {
      expect(database.url).toBeDefined();
      await database.ready;
      const workspaceId = await database.createWorkspace("Served test database");
      const client = await connect(database.url ?? "");
      try {
        const { rows } = await client.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [
          workspaceId,
        ]);
        expect(rows).toEqual([{ name: "Served test database" }]);
      } finally {
        await client.end();
      }
    } finally {
      await database.close();
    }
  });

  it("stays direct by default on the embedded backend (no url)", async () => {
    const database = await createTestDatabase();
    try {
      if (database.backend === "embedded") expect(database.url).toBeUndefined();
      else expect(database.url).toBeDefined();
    } finally {
      await database.close();
    }
  });
});

function startupMessage(): Buffer {
  const body = Buffer.concat([
    int32(196608),
    cString("user"),
    cString("postgres"),
    cString("database"),
    cString("postgres"),
    Buffer.from([0]),
  ]);
  return Buffer.concat([int32(body.length + 4), body]);
}

function frontendMessage(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
}

function cString(value: string): Buffer {
  return Buffer.from(`${value}\0`);
}

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

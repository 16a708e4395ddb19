import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountSmallDisk, type SmallDisk } from "../system/__fixtures__/small-disk";
import { serveEmbeddedInThread } from "./embedded-thread-server";
import type { EmbeddedServer } from "./embedded-server";

const MB = 1024 * 1024;
const disk = mountSmallDisk(80);
const skip = typeof disk === "string" ? disk : undefined;
if (skip) console.warn(`[embedded-disk.test] skipped: ${skip}`);

let smallDisk: SmallDisk;
let server: EmbeddedServer;
let pool: pg.Pool;
let databaseDir: string;

beforeAll(async () => {
  if (skip) return;
  smallDisk = disk as SmallDisk;
  databaseDir = path.join(smallDisk.dir, "pglite");
  server = serveEmbeddedInThread(databaseDir, { reserveBytes: 4 * MB, stallMs: 3_000, checkEveryMs: 250 });
  await server.ready;
  // Connections the restart cuts report here instead of crashing the test.
  pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pool.on("error", () => {});
  await pool.query("CREATE TABLE files (id serial PRIMARY KEY, body bytea)");
}, 60_000);

afterAll(async () => {
  if (skip) return;
  await pool?.end().catch(() => {});
  await server?.close().catch(() => {});
  smallDisk.unmount();
}, 60_000);

const rows = async () => Number((await pool.query("SELECT count(*) AS n FROM files")).rows[0].n);
const insert = (bytes: number) => pool.query("INSERT INTO files (body) VALUES ($1)", [Buffer.alloc(bytes, 7)]);

/** Retries `work` until it succeeds or `ms` pass; the last error is thrown. */
async function eventually<T>(work: () => Promise<T>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe.skipIf(skip !== undefined)("the embedded database on a full disk", () => {
  it("refuses a large write that would eat into the reserve with disk_full naming the folder and the space, and stays usable", async () => {
    const before = await rows();
    smallDisk.fill(12 * MB);
    const refused = await insert(3 * MB).then(
      () => undefined,
      (error: { code?: string; message: string }) => error,
    );
    expect(refused?.code).toBe("53100");
    expect(refused?.message).toContain(`the disk holding ${databaseDir} has`);
    expect(refused?.message).toMatch(/this needs 13 MB/);
    expect(await rows()).toBe(before);
    smallDisk.free();
    await insert(3 * MB);
    expect(await rows()).toBe(before + 1);
  }, 60_000);

  it("comes back by itself, with its data, once space is freed after PGlite itself ran out", async () => {
    const before = await rows();
    smallDisk.fill(0);
    // Small writes pass the guard unchecked and meet ENOSPC inside PGlite.
    let failed: { code?: string } | undefined;
    for (let attempt = 0; attempt < 200 && !failed; attempt++)
      failed = await insert(32 * 1024).then(
        () => undefined,
        (error: { code?: string }) => error,
      );
    expect(failed?.code).toBe("53100");
    // A checkpoint on the full disk fails too and used to leave PGlite's session holding every later query.
    await pool.query("CHECKPOINT").catch(() => {});
    const whileFull = Date.now();
    const answer = await pool.query("SELECT count(*) FROM files").then(
      () => "answered",
      () => "failed",
    );
    expect(answer).toBe("failed");
    expect(Date.now() - whileFull).toBeLessThan(5_000);
    smallDisk.free();
    const started = Date.now();
    await eventually(() => insert(1024), 20_000);
    const recoveredMs = Date.now() - started;
    console.info(`[embedded-disk.test] writes succeeded again ${recoveredMs} ms after space was freed`);
    expect(await rows()).toBeGreaterThanOrEqual(before + 1);
  }, 90_000);
});

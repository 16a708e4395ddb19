import { PGlite } from "@electric-sql/pglite";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Database } from "../client";
import type { DatabaseConfig } from "../database-config.mjs";
import { TEST_ENV, withDatabaseName } from "../test-env";
import { applyMigrationsToPGlite, applyMigrationsToPostgres, migrateDatabase } from "./apply-migrations.mjs";
import { MIGRATIONS_DIR } from "./migrations-directory.mjs";

/**
 * The start-up path on whichever backend this test run uses: migrations applied to an empty
 * database and recorded like `prisma migrate deploy`, skipped on the next start.
 */

const adminUrl = process.env[TEST_ENV.postgresAdminUrl];
const backend = adminUrl ? "postgres" : "embedded";
const committed = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

let scratchDir: string;
const createdDatabases: string[] = [];
beforeAll(() => {
  scratchDir = mkdtempSync(path.join(os.tmpdir(), "trellis-migrate-"));
});
afterAll(async () => {
  if (adminUrl)
    await admin((client) =>
      Promise.all(createdDatabases.map((name) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
    );
  rmSync(scratchDir, { recursive: true, force: true });
});

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An empty database on the run's backend: its config, and a way to open it. */
async function emptyDatabase(label: string): Promise<{ config: DatabaseConfig; open: () => Database }> {
  if (adminUrl) {
    const name = `${process.env[TEST_ENV.postgresTemplate]!.replace(/_tpl$/, "")}_${label}_${process.pid}`;
    await admin((client) => client.query(`CREATE DATABASE "${name}"`));
    createdDatabases.push(name);
    const url = withDatabaseName(adminUrl, name);
    return {
      config: { kind: "postgres", url, dataDir: scratchDir },
      open: () => createPrisma({ kind: "postgres", url }),
    };
  }
  const dataDir = path.join(scratchDir, label);
  const databaseDir = path.join(dataDir, "pglite");
  return {
    config: { kind: "embedded", dataDir, databaseDir },
    open: () => createPrisma({ kind: "embedded", databaseDir }),
  };
}

describe(`migrations on ${backend}`, () => {
  it("applies every committed migration to an empty database once, recording each like prisma migrate deploy", async () => {
    const { config, open } = await emptyDatabase("fresh");
    expect(await migrateDatabase(config)).toEqual(committed);
    // A restart: nothing left to apply.
    expect(await migrateDatabase(config)).toEqual([]);

    const database = open();
    try {
      const rows = await database.prisma.$queryRawUnsafe<
        Array<{
          migration_name: string;
          checksum: string;
          finished_at: Date | null;
          rolled_back_at: Date | null;
          applied_steps_count: number;
        }>
      >(
        "SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name",
      );
      expect(rows.map((row) => row.migration_name)).toEqual(committed);
      for (const row of rows) {
        const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
        expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
        expect(row.finished_at).not.toBeNull();
        expect(row.rolled_back_at).toBeNull();
      }
      // The tables are usable through the Prisma client.
      const workflow = await database.prisma.workflow.create({
        data: {
          name: "After migrate",
          document: { blocks: [], edges: [], variables: {} },
          workspace: { create: { name: "After migrate" } },
        },
      });
      expect(workflow.version).toBe(1);
    } finally {
      await database.close();
    }
  });

  it("stops at a failing migration with the database's error and does not record it as applied", async () => {
    const migrationsDir = path.join(scratchDir, "broken-migrations");
    cpSync(MIGRATIONS_DIR, migrationsDir, { recursive: true });
    mkdirSync(path.join(migrationsDir, "29990101000000_broken"));
    writeFileSync(
      path.join(migrationsDir, "29990101000000_broken", "migration.sql"),
      'ALTER TABLE "no_such_table" ADD COLUMN "x" INTEGER;\n',
    );

    let recorded: Array<{ migration_name: string; finished_at: Date | null }>;
    if (adminUrl) {
      const { config } = await emptyDatabase("broken");
      if (config.kind !== "postgres") throw new Error("unreachable");
      await expect(applyMigrationsToPostgres(config.url, { migrationsDir })).rejects.toThrow(/no_such_table/);
      const client = new pg.Client({ connectionString: config.url });
      await client.connect();
      recorded = (
        await client.query("SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name")
      ).rows;
      await client.end();
    } else {
      const client = new PGlite();
      await expect(applyMigrationsToPGlite(client, { migrationsDir })).rejects.toThrow(/no_such_table/);
      recorded = (
        await client.query<{ migration_name: string; finished_at: Date | null }>(
          "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
        )
      ).rows;
      await client.close();
    }
    expect(recorded.filter((row) => row.finished_at !== null).map((row) => row.migration_name)).toEqual(committed);
    expect(recorded.find((row) => row.migration_name === "29990101000000_broken")?.finished_at ?? null).toBeNull();
  });
});

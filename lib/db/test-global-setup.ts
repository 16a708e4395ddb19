import { PGlite } from "@electric-sql/pglite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { applyMigrationsToPGlite, applyMigrationsToPostgres } from "./migrate/apply-migrations.mjs";
import { TEST_ENV, withDatabaseName } from "./test-env";

/**
 * vitest globalSetup: gives the test run its own database with the migrations applied, and points
 * DATABASE_URL / DATA_DIR at it, so tests never touch a developer's data.
 * - DATABASE_URL set: creates `trellis_test_<pid>_<time>_tpl` on that server and migrates it, then
 *   `trellis_test_<pid>_<time>` from it as the run's DATABASE_URL; createTestDatabase() clones the
 *   template again per call. All of them are dropped at teardown.
 * - Otherwise: migrates an in-memory PGlite and dumps it to a temporary DATA_DIR; every test
 *   process (getPrisma() and createTestDatabase()) loads its own in-memory copy of that dump.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-test-"));
  process.env.DATA_DIR = dataDir;
  const serverUrl = process.env.DATABASE_URL?.trim();
  if (!serverUrl) {
    const client = new PGlite();
    try {
      await applyMigrationsToPGlite(client);
      const dump = await client.dumpDataDir("none");
      const template = path.join(dataDir, "pglite-template.tar");
      writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
      process.env[TEST_ENV.pgliteTemplate] = template;
    } finally {
      await client.close();
    }
    return async () => rmSync(dataDir, { recursive: true, force: true });
  }

  const runName = `trellis_test_${process.pid}_${Date.now()}`;
  const templateName = `${runName}_tpl`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${templateName}"`);
    await applyMigrationsToPostgres(withDatabaseName(serverUrl, templateName));
    await admin.query(`CREATE DATABASE "${runName}" TEMPLATE "${templateName}"`);
  } finally {
    await admin.end();
  }
  process.env[TEST_ENV.postgresAdminUrl] = serverUrl;
  process.env[TEST_ENV.postgresTemplate] = templateName;
  process.env.DATABASE_URL = withDatabaseName(serverUrl, runName);

  return async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    try {
      const { rows } = await cleanup.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1",
        [`${runName}%`],
      );
      for (const { datname } of rows) await cleanup.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
}

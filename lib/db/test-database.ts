import { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { createPrisma, type Database } from "./client";
import { applyMigrationsToPGlite } from "./migrate/apply-migrations.mjs";
import { createRepositories, type Repositories } from "./repositories";
import { TEST_ENV, withDatabaseName } from "./test-env";

export interface TestDatabase extends Database {
  repositories: Repositories;
  /** The key its secrets are encrypted with (random per test database). */
  secretKey: Buffer;
  /** Makes a workspace (no members) and answers its id: everything stored belongs to one. */
  createWorkspace(name?: string): Promise<string>;
}

let pgliteTemplate: Blob | undefined;
let counter = 0;

export interface TestDatabaseOptions {
  /**
   * Embedded only: serve the in-memory PGlite on a private socket as the app does, with Prisma
   * over it and `url` set for other `pg` clients (DBOS); by default Prisma reaches it directly and
   * `url` is undefined. On PostgreSQL `url` is always set.
   */
  serve?: boolean;
}

/**
 * A fresh, migrated, empty database for one test file (or one test): a clone of the run's
 * template on PostgreSQL, or an in-memory PGlite otherwise. `close()` drops or discards it.
 * Needs lib/db/test-global-setup.ts as vitest globalSetup (embedded mode falls back to migrating
 * from scratch, which is slower).
 */
export async function createTestDatabase({ serve = false }: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (process.env.TRELLIS_TEST_NO_DATABASE) throw new Error(process.env.TRELLIS_TEST_NO_DATABASE);
  const database = process.env.DATABASE_URL ? await clonePostgresTemplate() : await freshPGlite(serve);
  const secretKey = randomBytes(32);
  let made = 0;
  const createWorkspace = async (name = `Workspace ${++made}`) =>
    (await database.prisma.workspace.create({ data: { name } })).id;
  // With a connection string (PostgreSQL, or a served embedded database) the run writer uses its own pool, as in the app.
  const repositories = createRepositories(database.prisma, {
    secretKey,
    ...(database.url ? { url: database.url, backend: database.backend } : {}),
  });
  const close = async () => {
    await repositories.runWriter.close();
    await database.close();
  };
  return { ...database, close, secretKey, repositories, createWorkspace };
}

async function clonePostgresTemplate(): Promise<Database> {
  const adminUrl = process.env[TEST_ENV.postgresAdminUrl];
  const template = process.env[TEST_ENV.postgresTemplate];
  if (!adminUrl || !template) {
    throw new Error(
      "createTestDatabase() on PostgreSQL needs vitest's globalSetup ./lib/db/test-global-setup.ts (see lib/db/README.md)",
    );
  }
  const name = `${template.replace(/_tpl$/, "")}_f${process.pid}_${++counter}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const database = createPrisma({ kind: "postgres", url: withDatabaseName(adminUrl, name) });
  return {
    ...database,
    close: async () => {
      await database.close();
      await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

async function freshPGlite(serve: boolean): Promise<Database> {
  const templatePath = process.env[TEST_ENV.pgliteTemplate];
  if (templatePath) {
    pgliteTemplate ??= new Blob([readFileSync(templatePath)]);
    return createPrisma({ kind: "memory", template: pgliteTemplate, serve });
  }
  const client = new PGlite();
  await applyMigrationsToPGlite(client);
  return createPrisma({ kind: "pglite", client, serve });
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

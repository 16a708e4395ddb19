// Applies prisma/migrations with Prisma's WASM schema engine, as `prisma migrate deploy` does:
// pending migrations run in order and are recorded in `_prisma_migrations` (name, checksum, times);
// applied ones are skipped, and an edited applied migration is an error. Works on PostgreSQL
// (@prisma/adapter-pg) and on embedded PGlite (pglite-prisma-adapter), through the same engine.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { acquireEmbeddedLock } from "../embedded-lock.mjs";
import { assertRoomToMigrate, describeMigrationError } from "./migration-space.mjs";
import { NO_FILTERS, readMigrationsDirectory, readSchemaFiles } from "./migrations-directory.mjs";
import { createPGliteMigrationAdapterFactory } from "./pglite-migration-adapter.mjs";
import { loadSchemaEngineModule } from "./schema-engine.mjs";

/**
 * Opens the schema engine on a driver adapter factory; `work` gets the engine, which is freed after.
 * @template T
 * @param {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory} factory
 * @param {(engine: import("@prisma/schema-engine-wasm").SchemaEngine) => Promise<T>} work
 * @param {{ schemaPath?: string }} [options]
 * @returns {Promise<T>}
 */
export async function withSchemaEngine(factory, work, options = {}) {
  const { SchemaEngine } = await loadSchemaEngineModule();
  const schema = readSchemaFiles(options.schemaPath);
  const datamodels = schema.files.map((file) => /** @type {[string, string]} */ ([file.path, file.content]));
  const engine = await SchemaEngine.new({ datamodels }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await work(engine);
  } finally {
    engine.free();
  }
}

/**
 * @param {import("@prisma/driver-adapter-utils").SqlMigrationAwareDriverAdapterFactory} factory
 * @param {{ migrationsDir?: string, schemaPath?: string }} [options]
 * @returns {Promise<string[]>} names of the migrations applied now (empty when up to date)
 */
export async function applyMigrationsWith(factory, options = {}) {
  const migrationsList = readMigrationsDirectory(options.migrationsDir);
  return withSchemaEngine(
    factory,
    async (engine) => (await engine.applyMigrations({ migrationsList, filters: NO_FILTERS })).appliedMigrationNames,
    options,
  );
}

/**
 * @param {string} url
 * @param {{ migrationsDir?: string, schemaPath?: string }} [options]
 */
export async function applyMigrationsToPostgres(url, options = {}) {
  // One connection, so the engine's session-level advisory lock and its queries share a session.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await applyMigrationsWith(new PrismaPg(pool), options);
  } finally {
    await pool.end();
  }
}

/**
 * @param {import("@electric-sql/pglite").PGlite} client
 * @param {{ migrationsDir?: string, schemaPath?: string }} [options]
 */
export async function applyMigrationsToPGlite(client, options = {}) {
  return applyMigrationsWith(createPGliteMigrationAdapterFactory(client), options);
}

/**
 * Applies pending migrations to the configured database (DATABASE_URL, or PGlite in DATA_DIR).
 * @param {import("../database-config.d.mts").DatabaseConfig} config
 * @param {{ migrationsDir?: string, schemaPath?: string }} [options]
 */
export async function migrateDatabase(config, options = {}) {
  if (config.kind === "postgres") return applyMigrationsToPostgres(config.url, options);
  const release = acquireEmbeddedLock(config.databaseDir);
  /** @type {PGlite | undefined} */
  let client;
  try {
    // PGlite that runs out of space part-way stops answering, so a disk too small is refused first.
    assertRoomToMigrate(config.databaseDir);
    client = new PGlite(config.databaseDir);
    return await applyMigrationsToPGlite(client, options);
  } catch (error) {
    throw new Error(describeMigrationError(error, config.databaseDir), { cause: error });
  } finally {
    // A PGlite that failed for lack of space may fail again closing; the first error is the one to tell.
    await client?.close().catch(() => {});
    release();
  }
}

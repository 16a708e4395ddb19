// Writes a new migration: the difference between what prisma/migrations builds and
// prisma/schema.prisma, computed by the WASM schema engine. The engine replays the existing
// migrations on a throwaway in-memory PGlite (its "shadow database"), so no server is needed.
import { PGlite } from "@electric-sql/pglite";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  MIGRATIONS_DIR,
  NO_FILTERS,
  readMigrationsDirectory,
  readSchemaFiles,
} from "./migrations-directory.mjs";
import { createPGliteMigrationAdapterFactory } from "./pglite-migration-adapter.mjs";
import { withSchemaEngine } from "./apply-migrations.mjs";

const NAME_PATTERN = /^[a-z0-9_]{1,100}$/;

/**
 * @param {string} name lowercase words joined by underscores, e.g. `add_knowledge_tables`
 * @param {{ migrationsDir?: string, schemaPath?: string, now?: Date }} [options]
 * @returns {Promise<{ directory: string, sql: string } | null>} null when the schema has no changes
 */
export async function createMigration(name, options = {}) {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(
      `Migration name "${name}" must be 1 to 100 characters of a-z, 0-9 and _ (for example add_knowledge_tables)`,
    );
  }
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const existing = readMigrationsDirectory(migrationsDir);
  // The engine needs the lockfile to know the connector, even before the first migration.
  const migrationsList = {
    ...existing,
    lockfile: { ...existing.lockfile, content: existing.lockfile.content ?? LOCKFILE_CONTENT },
  };
  const schema = readSchemaFiles(options.schemaPath);
  const scratch = new PGlite();
  try {
    const result = await withSchemaEngine(
      // The engine needs a main connection too; the scratch database serves as both.
      createPGliteMigrationAdapterFactory(scratch, { shadowClient: scratch }),
      (engine) =>
        engine.diff({
          from: { tag: "migrations", ...migrationsList },
          to: { tag: "schemaDatamodel", ...schema },
          script: true,
          exitCode: true,
          filters: NO_FILTERS,
        }),
      options,
    );
    // With exitCode set, the engine answers 2 when there is a difference and 0 when there is none.
    if (result.exitCode !== 2 || !result.stdout) return null;
    const directory = path.join(migrationsDir, `${timestamp(options.now ?? new Date())}_${name}`);
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, "migration.sql"), result.stdout);
    if (existing.lockfile.content === null)
      writeFileSync(path.join(/*turbopackIgnore: true*/ migrationsDir, LOCKFILE_NAME), LOCKFILE_CONTENT);
    return { directory, sql: result.stdout };
  } finally {
    await scratch.close();
  }
}

/** Prisma Migrate's directory prefix: UTC YYYYMMDDHHMMSS. */
function timestamp(date) {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

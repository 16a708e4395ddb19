#!/usr/bin/env node
// `npm run db:migrate`, and the first step of `npm run dev` / `npm start`: applies pending
// migrations from prisma/migrations to DATABASE_URL, or to the embedded database under DATA_DIR.
import { redactDatabaseUrl, resolveDatabaseConfig } from "../lib/db/database-config.mjs";
import { migrateDatabase } from "../lib/db/migrate/apply-migrations.mjs";
import { describeMigrationError } from "../lib/db/migrate/migration-space.mjs";

const config = resolveDatabaseConfig();
const target =
  config.kind === "postgres" ? redactDatabaseUrl(config.url) : `embedded database in ${config.databaseDir}`;
try {
  const applied = await migrateDatabase(config);
  console.log(
    applied.length === 0
      ? `Database is up to date (${target}).`
      : `Applied ${applied.length} migration(s) to ${target}: ${applied.join(", ")}`,
  );
} catch (error) {
  console.error(
    `Migrating ${target} failed: ${describeMigrationError(error, config.kind === "embedded" ? config.databaseDir : undefined)}`,
  );
  process.exit(1);
}

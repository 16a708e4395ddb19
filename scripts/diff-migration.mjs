#!/usr/bin/env node
// `npm run db:diff -- <name>`: after editing prisma/schema.prisma, writes the SQL migration that
// brings the committed migrations up to the schema, as prisma/migrations/<timestamp>_<name>/.
// Needs no database server. Review the SQL, then apply it with `npm run db:migrate`.
import path from "node:path";
import { createMigration } from "../lib/db/migrate/create-migration.mjs";

const name = process.argv[2];
if (!name) {
  console.error("Usage: npm run db:diff -- <migration_name>   (for example add_knowledge_tables)");
  process.exit(1);
}
try {
  const created = await createMigration(name);
  if (created === null) {
    console.log("prisma/schema.prisma matches the migrations: nothing to write.");
  } else {
    console.log(`Wrote ${path.relative(process.cwd(), path.join(created.directory, "migration.sql"))}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

/**
 * Writes prisma/migrations/<UTC YYYYMMDDHHMMSS>_<name>/migration.sql for the difference between
 * the committed migrations and the schema; null when there is none.
 */
export function createMigration(
  name: string,
  options?: { migrationsDir?: string; schemaPath?: string; now?: Date },
): Promise<{ directory: string; sql: string } | null>;

import type { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { DatabaseConfig } from "../database-config.d.mts";

export interface MigrationOptions {
  /** Defaults to prisma/migrations. */
  migrationsDir?: string;
  /** Defaults to prisma/schema.prisma. */
  schemaPath?: string;
}

/** Each returns the names of the migrations applied now (empty when already up to date). */
export function applyMigrationsWith(
  factory: SqlMigrationAwareDriverAdapterFactory,
  options?: MigrationOptions,
): Promise<string[]>;
export function applyMigrationsToPostgres(url: string, options?: MigrationOptions): Promise<string[]>;
export function applyMigrationsToPGlite(client: PGlite, options?: MigrationOptions): Promise<string[]>;
export function migrateDatabase(config: DatabaseConfig, options?: MigrationOptions): Promise<string[]>;

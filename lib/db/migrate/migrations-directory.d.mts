import type { MigrationList, SchemasContainer } from "@prisma/schema-engine-wasm";

export const PRISMA_DIR: string;
export const SCHEMA_PATH: string;
export const MIGRATIONS_DIR: string;
export const LOCKFILE_NAME: string;
export const LOCKFILE_CONTENT: string;
export const NO_FILTERS: { externalTables: string[]; externalEnums: string[] };
export function readMigrationsDirectory(migrationsDir?: string): MigrationList;
export function readSchemaFiles(schemaPath?: string): SchemasContainer;

/** Environment variables lib/db/test-global-setup.ts hands to test workers. */
export const TEST_ENV = {
  /** PostgreSQL: a URL of the server's maintenance database, for creating and dropping databases. */
  postgresAdminUrl: "TRELLIS_TEST_POSTGRES_ADMIN_URL",
  /** PostgreSQL: the migrated database that createTestDatabase() clones. */
  postgresTemplate: "TRELLIS_TEST_POSTGRES_TEMPLATE",
  /** Embedded: a PGlite dump with the migrations applied (read by lib/db/database-config.mjs too). */
  pgliteTemplate: "TRELLIS_TEST_PGLITE_TEMPLATE",
} as const;

/** `url` with its database name replaced. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

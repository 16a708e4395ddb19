export type DatabaseConfig =
  | {
      kind: "postgres";
      url: string;
      /** Still used for files beside the database, such as secret.key. */
      dataDir: string;
    }
  | {
      kind: "embedded";
      dataDir: string;
      /** Where PGlite keeps its files: `DATA_DIR/pglite`. */
      databaseDir: string;
      /**
       * Tests only (set by lib/db/test-global-setup.ts): a PGlite dump with the migrations applied.
       * Each process then gets its own in-memory copy instead of sharing `databaseDir`.
       */
      template?: string;
    };

export function resolveDatabaseConfig(env?: NodeJS.ProcessEnv): DatabaseConfig;
export function redactDatabaseUrl(url: string): string;

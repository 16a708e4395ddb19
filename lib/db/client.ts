import "server-only";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { readFileSync } from "node:fs";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { resolveDatabaseConfig } from "./database-config.mjs";
import { acquireEmbeddedLock } from "./embedded-lock.mjs";

/** Server-only: the Prisma client over PostgreSQL (DATABASE_URL) or embedded PGlite (DATA_DIR). */

export type { PrismaClient } from "@/lib/generated/prisma/client";
export type DatabaseBackend = "postgres" | "embedded";

export type DatabaseOptions =
  | { kind: "postgres"; url: string }
  /** PGlite files in `databaseDir`, locked to this process; or a copy of `template` in memory. */
  | { kind: "embedded"; databaseDir: string; template?: string }
  /** An in-memory embedded database; `template` (a PGlite dump) gives it tables from the start. */
  | { kind: "memory"; template?: Blob }
  /** A PGlite you opened yourself (closed by `close()`). */
  | { kind: "pglite"; client: PGlite };

export interface Database {
  prisma: PrismaClient;
  backend: DatabaseBackend;
  /** Disconnects, closes an embedded database and releases its lock. */
  close(): Promise<void>;
}

/** Opens a database. Prefer getPrisma() in the app; this is for tests and scripts. */
export function createPrisma(options: DatabaseOptions): Database {
  if (options.kind === "postgres") {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: options.url }) });
    return { prisma, backend: "postgres", close: () => prisma.$disconnect() };
  }
  if (options.kind === "pglite") return overPGlite(options.client, () => {});
  if (options.kind === "memory") {
    return overPGlite(new PGlite(options.template ? { loadDataDir: options.template } : {}), () => {});
  }
  if (options.template) {
    // Tests: each process gets its own in-memory copy of the migrated template, because one
    // PGlite data directory cannot be shared by vitest's parallel workers.
    return overPGlite(new PGlite({ loadDataDir: new Blob([readFileSync(options.template)]) }), () => {});
  }
  const release = acquireEmbeddedLock(options.databaseDir);
  try {
    return overPGlite(new PGlite(options.databaseDir), release);
  } catch (error) {
    release();
    throw error;
  }
}

function overPGlite(client: PGlite, release: () => void): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  return {
    prisma,
    backend: "embedded",
    close: async () => {
      await prisma.$disconnect();
      await client.close();
      release();
    },
  };
}

const globalCache = globalThis as typeof globalThis & { __trellisDatabase?: Database };

/**
 * The app's database, opened on first use from DATABASE_URL or DATA_DIR and kept on globalThis
 * so Next.js dev hot reloads reuse it. With the embedded database only one process may open
 * DATA_DIR at a time (`next dev` and `next start` are one process); a second one gets a clear
 * error. Migrations are applied before the app starts (scripts/migrate.mjs), not here.
 */
export function getDatabase(): Database {
  globalCache.__trellisDatabase ??= createPrisma(resolveDatabaseConfig());
  return globalCache.__trellisDatabase;
}

export function getPrisma(): PrismaClient {
  return getDatabase().prisma;
}

/** Closes the app's database (for graceful shutdown and tests); the next getPrisma() reopens it. */
export async function closeDatabase(): Promise<void> {
  const database = globalCache.__trellisDatabase;
  globalCache.__trellisDatabase = undefined;
  await database?.close();
}

import "server-only";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { readFileSync } from "node:fs";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { resolveDatabaseConfig } from "./database-config.mjs";
import { acquireEmbeddedLock } from "./embedded-lock.mjs";
import { serveEmbedded } from "./embedded-server";
import { serveEmbeddedInThread } from "./embedded-thread-server";

/** Server-only: the Prisma client over PostgreSQL (DATABASE_URL) or embedded PGlite (DATA_DIR). */

export type { PrismaClient } from "@/lib/generated/prisma/client";
export type DatabaseBackend = "postgres" | "embedded";

export type DatabaseOptions =
  | { kind: "postgres"; url: string }
  /**
   * PGlite files in `databaseDir`, locked to this process and always served on a private socket
   * from a worker thread; or an in-memory copy of `template`, served only with `serve`.
   */
  | { kind: "embedded"; databaseDir: string; template?: string; serve?: boolean }
  /** An in-memory embedded database; `template` (a PGlite dump) gives it tables from the start. */
  | { kind: "memory"; template?: Blob; serve?: boolean }
  /** A PGlite you opened yourself (closed by `close()`); once served, do not query it directly. */
  | { kind: "pglite"; client: PGlite; serve?: boolean };

export interface Database {
  prisma: PrismaClient;
  backend: DatabaseBackend;
  /**
   * A PostgreSQL connection string any `pg` client (DBOS) can use for this database: DATABASE_URL,
   * or the private socket of a served embedded database; undefined for an embedded database that is
   * not served. Connect only after `ready`.
   */
  url?: string;
  /** Resolves once `url` accepts connections; rejects if the database cannot be opened. Prisma waits for it by itself. */
  ready: Promise<void>;
  /** Disconnects, closes an embedded database (and its socket) and releases its lock. */
  close(): Promise<void>;
}

/** Opens a database. Prefer getPrisma() in the app; this is for tests and scripts. */
export function createPrisma(options: DatabaseOptions): Database {
  if (options.kind === "postgres") {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: options.url }) });
    return {
      prisma,
      backend: "postgres",
      url: options.url,
      ready: Promise.resolve(),
      close: () => prisma.$disconnect(),
    };
  }
  const serve = options.serve ?? false;
  if (options.kind === "pglite") return openEmbedded(options.client, serve, () => {});
  if (options.kind === "memory") {
    return openEmbedded(new PGlite(options.template ? { loadDataDir: options.template } : {}), serve, () => {});
  }
  if (options.template) {
    // Tests: each process gets its own in-memory copy of the migrated template, because one
    // PGlite data directory cannot be shared by vitest's parallel workers.
    return openEmbedded(new PGlite({ loadDataDir: new Blob([readFileSync(options.template)]) }), serve, () => {});
  }
  const release = acquireEmbeddedLock(options.databaseDir);
  try {
    const server = serveEmbeddedInThread(options.databaseDir);
    return servedDatabase(server.url, server.ready, () => server.close(), release);
  } catch (error) {
    release();
    throw error;
  }
}

/** An embedded database reached only through its socket, by Prisma like every other client. */
function servedDatabase(
  url: string,
  ready: Promise<void>,
  closeServer: () => Promise<void>,
  release: () => void,
): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPgWhenReady(ready, url) });
  return {
    prisma,
    backend: "embedded",
    url,
    ready,
    close: async () => {
      try {
        await prisma.$disconnect();
        await closeServer();
      } finally {
        release();
      }
    },
  };
}

function openEmbedded(client: PGlite, serve: boolean, release: () => void): Database {
  if (!serve) {
    // Direct: fastest, but then nothing else may reach this PGlite (no `url`).
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
    const ready = client.waitReady;
    ready.catch(() => {});
    return {
      prisma,
      backend: "embedded",
      ready,
      close: async () => {
        await prisma.$disconnect();
        await client.close();
        release();
      },
    };
  }
  // Served: Prisma goes through the socket like every other client, so that a query never lands in
  // the middle of another client's transaction (lib/db/README.md).
  const server = serveEmbedded(client);
  return servedDatabase(
    server.url,
    server.ready,
    async () => {
      await server.close();
      await client.close();
    },
    release,
  );
}

/**
 * The socket exists only once PGlite has started, after createPrisma() has returned; Prisma connects
 * on its first query, which this makes wait for the socket so that getPrisma() can stay synchronous.
 */
class PrismaPgWhenReady extends PrismaPg {
  constructor(
    private readonly ready: Promise<void>,
    connectionString: string,
  ) {
    super({ connectionString });
  }

  override async connect(): ReturnType<PrismaPg["connect"]> {
    await this.ready;
    return super.connect();
  }
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

import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  errorResponseOf,
  refusalOf,
  replaceErrors,
  reportsDiskFull,
  substituteOf,
  type DiskGuard,
} from "./embedded-disk-guard";

/**
 * Serves an embedded PGlite to `pg` clients (Prisma over @prisma/adapter-pg, DBOS) on a private
 * unix socket. PGlite is one PostgreSQL session: once it is served, every client must go through
 * the socket, because only the server keeps one client's transaction from swallowing another's
 * queries (see lib/db/README.md).
 */
export interface EmbeddedServer {
  /** A `pg` connection string for the socket. Connections made before `ready` fail (no socket yet). */
  readonly url: string;
  /** Resolves once the socket accepts connections (PGlite has started); rejects if PGlite fails to start. */
  readonly ready: Promise<void>;
  /** Closes client connections (rolling back their open transactions), stops listening and removes the socket directory; leaves the PGlite open. */
  close(): Promise<void>;
}

export interface EmbeddedServerOptions {
  /** Concurrent connections before new ones are refused; every pool (Prisma's, DBOS's) holds several. */
  maxConnections?: number;
  /** A directory from makeSocketDir() to listen in; a new one when left out. */
  socketDir?: string;
  /** Refuses large writes that would leave the PGlite files' disk short of its reserve (embedded-disk-guard.ts). */
  disk?: DiskGuard;
  /**
   * Told when PGlite can no longer be trusted: it reported a full disk itself (its session may be
   * left half-cleaned) or it threw. The owner restarts it (embedded-thread-server.ts).
   */
  onTrouble?(trouble: PGliteTrouble): void;
}

export interface PGliteTrouble {
  kind: "disk_full" | "failed";
  message: string;
}

/**
 * A directory only this user can enter: PGlite has no authentication, so the socket's directory is
 * the access control (a TCP port would let any local user in). Removed when the process exits, if
 * nothing removed it before.
 */
export function makeSocketDir(): string {
  const socketDir = mkdtempSync(path.join(os.tmpdir(), "trellis-db-"));
  chmodSync(socketDir, 0o700);
  trackSocketDir(socketDir);
  return socketDir;
}

/** The `pg` connection string of a socket in `socketDir`. */
export function socketUrl(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** Removes a socket directory made by makeSocketDir(). */
export function removeSocketDir(socketDir: string): void {
  rmSync(socketDir, { recursive: true, force: true });
  untrackSocketDir(socketDir);
}

/** Starts serving `db`; await `ready` before connecting with anything but the returned Prisma adapter. */
export function serveEmbedded(
  db: PGlite,
  { maxConnections = 64, socketDir = makeSocketDir(), disk, onTrouble }: EmbeddedServerOptions = {},
): EmbeddedServer {
  const server = new PGLiteSocketServer({
    db: withSessionTurns(db, disk, onTrouble),
    path: path.join(socketDir, ".s.PGSQL.5432"),
    maxConnections,
  });
  const ready = server.start();
  // Nobody may await `ready` (Prisma awaits it only on first use); the rejection still reaches those who do.
  ready.catch(() => {});
  let closing: Promise<void> | undefined;
  return {
    url: socketUrl(socketDir),
    ready,
    close: () =>
      (closing ??= (async () => {
        // stop() before start() has finished would let start() listen afterwards, on a server nobody stops.
        await ready.catch(() => {});
        try {
          await server.stop();
          // stop() queues the rollbacks of departed connections on PGlite's lock without awaiting them.
          await db.runExclusive(async () => {}).catch(() => {});
        } finally {
          removeSocketDir(socketDir);
        }
      })()),
  };
}

/*
 * pglite-socket 0.2.17 serializes single protocol messages from all connections into the one PGlite
 * session and keeps a connection's turn only while `db.isInTransaction()`. A pg query outside BEGIN is
 * several messages (Parse, Bind, Describe, Execute, Sync) sharing the session's unnamed statement and
 * portal until ReadyForQuery, so another connection's Parse could land between them: the first client
 * then binds the other one's statement (errors, or silently wrong rows). It happens whenever a message
 * arrives in more than one socket read, e.g. parameters over ~64 KB
 * (https://github.com/electric-sql/pglite/issues/1046). The server reads `isInTransaction()` only to
 * decide whose turn it is, so the view below answers it from the protocol instead: a connection keeps
 * the session from its first message until the backend is idle again (ReadyForQuery 'I'), which
 * covers extended-protocol batches, transactions and COPY alike.
 */
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'
const FAILED_TRANSACTION = 0x45; // 'E'
const QUERY = 0x51; // 'Q'
const DISK_FULL = "53100";
// Messages the backend may send at any time; they say nothing about whose turn it is.
const ASYNC_MESSAGES = new Set([0x41 /* A: notification */, 0x4e /* N: notice */, 0x53 /* S: parameter status */]);

function withSessionTurns(db: PGlite, disk?: DiskGuard, onTrouble?: (trouble: PGliteTrouble) => void): PGlite {
  let busy = false;
  // Counts the session's returns to idle; a connection's turn is the span between two of them.
  let turn = 0;

  const execProtocolRawStream: PGlite["execProtocolRawStream"] = async (message, options) => {
    const scanner = new ResponseScanner();
    const forward = (data: Uint8Array) => {
      scanner.feed(data);
      options.onRawData(data);
    };
    const refusal = disk && refusalOf(message, disk);
    try {
      if (refusal) {
        const chunks: Uint8Array[] = [];
        await db.execProtocolRawStream(substituteOf(message), { ...options, onRawData: (data) => chunks.push(data) });
        forward(replaceErrors(Buffer.concat(chunks), errorResponseOf(DISK_FULL, refusal)));
      } else {
        await db.execProtocolRawStream(message, {
          ...options,
          onRawData: (data) => {
            if (onTrouble && reportsDiskFull(data))
              onTrouble({ kind: "disk_full", message: "PGlite reported a full disk" });
            forward(data);
          },
        });
      }
    } catch (error) {
      // pglite-socket 0.2.17 stops serving every connection for good when this throws (its queue's
      // `processing` flag is never reset), so the client gets an error answer instead, and the
      // owner learns that PGlite is broken.
      const reason = error instanceof Error ? error.message : String(error);
      onTrouble?.({ kind: "failed", message: reason });
      forward(errorResponseOf("XX000", `The embedded database failed: ${reason}`));
      if (message[0] === QUERY) forward(readyForQuery(busy ? FAILED_TRANSACTION : IDLE));
    }
    // A response without turn-relevant messages (Terminate; a message skipped after an error until
    // Sync) leaves the state as it was.
    if (scanner.idle === undefined) return;
    busy = !scanner.idle;
    if (!busy) turn++;
  };

  // The server calls exec() only to roll back after a connection that held the session went away.
  // Its turn may have ended meanwhile (its last message was still running) and another connection's
  // begun: then nothing is left to undo, and a ROLLBACK would hit the other connection.
  const exec = async (): Promise<[]> => {
    const departed = turn;
    if (db.closed) return [];
    try {
      await db.runExclusive(async () => {
        if (db.closed || turn !== departed || !busy) return;
        // ROLLBACK ends an explicit or implicit (unsynced extended-protocol) transaction; it is skipped
        // after an error until Sync; the second ROLLBACK ends the transaction that error left failed.
        await db.execProtocolRaw(queryMessage("ROLLBACK"));
        await db.execProtocolRaw(SYNC_MESSAGE);
        await db.execProtocolRaw(queryMessage("ROLLBACK"));
        busy = false;
        turn++;
      });
    } catch {
      // The server does not await this cleanup: a throw would be an unhandled rejection, and a PGlite
      // that fails here is closed or broken, with no session left to free.
    }
    return [];
  };

  const overrides = new Map<PropertyKey, unknown>([
    ["isInTransaction", () => busy && !db.closed],
    ["execProtocolRawStream", execProtocolRawStream],
    ["exec", exec],
  ]);
  return new Proxy(db, {
    get(target, property) {
      if (overrides.has(property)) return overrides.get(property);
      // PGlite keeps its state in #private fields, so its getters and methods must run on the real object.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Follows the backend's message framing across chunks to learn where a response left the session. */
class ResponseScanner {
  /** Whether the last turn-relevant message was ReadyForQuery with status idle; undefined if none came. */
  idle: boolean | undefined;
  private readonly header = Buffer.alloc(5);
  private headerLength = 0;
  private type = 0;
  private bodyLength = 0;
  private bodyRead = 0;
  private status = 0;

  feed(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      if (this.headerLength < 5) {
        this.header[this.headerLength++] = data[offset++] ?? 0;
        if (this.headerLength === 5) {
          this.type = this.header[0] ?? 0;
          this.bodyLength = this.header.readInt32BE(1) - 4;
          this.bodyRead = 0;
          if (this.bodyLength <= 0) this.endMessage();
        }
        continue;
      }
      if (this.bodyRead === 0) this.status = data[offset] ?? 0;
      const take = Math.min(this.bodyLength - this.bodyRead, data.length - offset);
      offset += take;
      this.bodyRead += take;
      if (this.bodyRead === this.bodyLength) this.endMessage();
    }
  }

  private endMessage(): void {
    this.headerLength = 0;
    if (ASYNC_MESSAGES.has(this.type)) return;
    this.idle = this.type === READY_FOR_QUERY && this.status === IDLE;
  }
}

const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]);

function readyForQuery(status: number): Uint8Array {
  return new Uint8Array([READY_FOR_QUERY, 0, 0, 0, 5, status]);
}

function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message[0] = 0x51; // 'Q'
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

// Socket directories of servers not closed by the time the process exits (an uncaught error, a forgotten
// close()) are removed then, so temporary directories do not pile up.
const openSocketDirs = new Set<string>();
let exitHookInstalled = false;

function trackSocketDir(dir: string): void {
  openSocketDirs.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => openSocketDirs.forEach((open) => rmSync(open, { recursive: true, force: true })));
}

function untrackSocketDir(dir: string): void {
  openSocketDirs.delete(dir);
}

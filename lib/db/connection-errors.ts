import "server-only";
import { processLogger } from "@/lib/observability";

/**
 * Whether an error means the database could not be reached (it restarted, failed over, refused
 * connections, the network dropped), as opposed to a query it refused. Such a failure is
 * temporary: idempotent work is retried, and an API answer is 503 `database_unavailable`. Knows
 * `pg`'s errors and Prisma's (with the pg driver adapter), by shape, since bundled copies of
 * either would fail an instanceof.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const each of causes(error)) {
    const code = typeof each.code === "string" ? each.code : undefined;
    if (code && (NODE_ERRNOS.has(code) || PRISMA_CODES.has(code) || sqlStateUnreachable(code, each.message)))
      return true;
    const kind = typeof each.kind === "string" ? each.kind : undefined;
    if (kind && ADAPTER_KINDS.has(kind)) return true;
    if (typeof each.message === "string" && MESSAGES.some((pattern) => pattern.test(each.message as string)))
      return true;
  }
  return false;
}

/** Socket errors of the connection itself. */
const NODE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTCONN",
]);
/** Prisma: cannot reach the server, timed out reaching it, it closed the connection, no connection free in time. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
/** What @prisma/driver-adapter-utils calls a lost or refused connection. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** pg's own words for a connection that went away under it. */
const MESSAGES = [
  /connection terminated/i,
  /encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /server closed the connection/i,
];

function sqlStateUnreachable(code: string, message: unknown): boolean {
  // 08: connection exception; 57P01-57P03: shut down by an administrator, crashed, starting up; 53300: too many connections.
  if (/^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300")
    return true;
  // 55000 is broader; only its "not currently accepting connections" (ALLOW_CONNECTIONS false) is an outage.
  return code === "55000" && typeof message === "string" && /not currently accepting connections/i.test(message);
}

type Described = Record<string, unknown>;

/** The error, its causes, and what Prisma's driver adapter error carries in `meta`. */
function* causes(error: unknown): Generator<Described> {
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const described = current as Described;
    yield described;
    queue.push(described.cause);
    const meta = described.meta as Described | undefined;
    if (meta && typeof meta === "object") queue.push(meta.driverAdapterError);
    if (Array.isArray(described.errors)) queue.push(...(described.errors as unknown[]));
  }
}

/** Waits `ms`, or less if `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The delay before retry `attempt` (1, 2, ...): doubling from `firstMs` up to `maxMs`, with jitter so processes do not retry in step. */
export function backoffMs(attempt: number, firstMs = 100, maxMs = 2_000): number {
  const base = Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/**
 * Runs `work` again while it fails because the database is unreachable, with backoff, for at most
 * `forMs`; any other failure, or the last one, is thrown. Only for idempotent work.
 */
export async function retryWhileUnreachable<T>(
  work: () => Promise<T>,
  options: { forMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const deadline = Date.now() + (options.forMs ?? 5 * 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnreachable(error) || Date.now() >= deadline || options.signal?.aborted) throw error;
      await pause(Math.min(backoffMs(attempt), Math.max(0, deadline - Date.now())), options.signal);
    }
  }
}

/**
 * Keeps a pg pool's idle connections from crashing the process: pg emits `error` on the pool when
 * one of them is ended by the server (a restart, a failover), and an EventEmitter with no listener
 * throws it. The pool drops that connection and opens a fresh one on its next query.
 */
export function survivePoolErrors(
  pool: { on(event: "error", listener: (error: Error) => void): unknown },
  label: string,
): void {
  let lastLogged = 0;
  pool.on("error", (error) => {
    // One line per outage is enough: every idle connection reports the same restart.
    if (Date.now() - lastLogged < 5_000) return;
    lastLogged = Date.now();
    processLogger().warn(
      `${label}: a database connection was lost (${describeConnectionError(error)}); it is replaced on next use`,
    );
  });
}

/** A short description of a connection failure for logs: its code and message, never the connection string. */
export function describeConnectionError(error: unknown): string {
  const described = (error && typeof error === "object" ? error : {}) as Described;
  const code = typeof described.code === "string" ? `${described.code} ` : "";
  const message = error instanceof Error ? error.message : String(error);
  return `${code}${message.replace(/postgres(ql)?:\/\/\S+/gi, "(database URL)")}`.trim();
}

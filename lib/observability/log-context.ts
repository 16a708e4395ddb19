import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/** Ids every log line written while handling something carries (the request's id while answering it). */
export interface LogContext {
  requestId?: string;
}

const KEY = Symbol.for("trellis.log-context");
type Shared = { [KEY]?: AsyncLocalStorage<LogContext> };

/** One store per process, on globalThis: Next bundles routes apart, and a line must find the request it belongs to. */
function storage(): AsyncLocalStorage<LogContext> {
  const shared = globalThis as Shared;
  shared[KEY] ??= new AsyncLocalStorage<LogContext>();
  return shared[KEY];
}

/** Runs `work` with `context` added to every log line it (and what it starts) writes. */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage().run({ ...storage().getStore(), ...context }, work);
}

/** The ids of what is being handled now, or none. */
export function currentLogContext(): LogContext | undefined {
  return storage().getStore();
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a plain token (a proxy's), else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

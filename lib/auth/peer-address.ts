import "server-only";
import { randomBytes } from "node:crypto";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/**
 * The TCP peer of a request, which a Next.js route handler is not told (Next only fills in
 * X-Forwarded-For from it when the client sent none, so that header says whatever the client
 * likes). `stampPeerAddresses`, called once at start (instrumentation.ts), writes each incoming
 * request's socket address into a header before Next sees the request. The header's name is
 * random per process, so no client can send it: a request that was not stamped has no peer
 * (those that arrived while the server was still starting, before instrumentation ran, share the
 * `unknown` address's limits). Next answers route handlers in the process and with the request
 * object that received the connection (it proxies only rewrites to other hosts), so the header
 * reaches them.
 */

const NAME = Symbol.for("trellis.peer-address-header");
const STAMPED = Symbol.for("trellis.peer-address-stamped");

type Shared = { [NAME]?: string; [STAMPED]?: boolean };

/** The stamp's header name; one per process, kept on globalThis since Next bundles each route apart. */
export function peerAddressHeader(): string {
  const shared = globalThis as Shared;
  shared[NAME] ??= `x-trellis-peer-${randomBytes(16).toString("hex")}`;
  return shared[NAME];
}

/** The socket address the request came from, or null when it was not stamped. */
export function peerAddressOf(request: Request): string | null {
  return request.headers.get(peerAddressHeader());
}

/** Makes every HTTP(S) server of this process stamp its requests' peer address. Idempotent. */
export function stampPeerAddresses(): void {
  const shared = globalThis as Shared;
  if (shared[STAMPED]) return;
  shared[STAMPED] = true;
  const header = peerAddressHeader();
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function stampingEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const message = args[0] as IncomingMessage;
        const address = message.socket?.remoteAddress;
        if (address) message.headers[header] = address;
        else delete message.headers[header];
      }
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof emit;
  }
}

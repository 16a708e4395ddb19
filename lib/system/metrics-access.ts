import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import ipaddr from "ipaddr.js";
import { peerAddressOf } from "@/lib/auth";
import { RequestError } from "@/lib/http/errors";

export const METRICS_TOKEN_VARIABLE = "TRELLIS_METRICS_TOKEN";

function isLoopback(text: string): boolean {
  try {
    const address = ipaddr.process(text.trim());
    return address.range() === "loopback";
  } catch {
    return false;
  }
}

/** Every address a request says it passed through: X-Forwarded-For's hops and X-Real-Ip. */
function forwardedAddresses(request: Request): string[] {
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim());
  const real = request.headers.get("x-real-ip")?.trim();
  return [...hops, ...(real ? [real] : [])].filter(Boolean);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Who may read GET /api/metrics. With TRELLIS_METRICS_TOKEN set: a request bearing it, from
 * anywhere. Without: only a request from this machine, its socket on loopback and no forwarding
 * header naming anything else, so a reverse proxy on the same machine does not open it to the
 * world. Session cookies and API keys do not count: a scraper is neither a user nor a workspace.
 * @throws RequestError 401 without the token when one is set, 403 from elsewhere when none is
 */
export function checkMetricsAccess(request: Request, token: string | undefined): void {
  if (token) {
    const header = request.headers.get("authorization") ?? "";
    const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
    if (!given || !sameSecret(given, token))
      throw new RequestError(
        "unauthenticated",
        `Metrics are read with "Authorization: Bearer <token>", the token being ${METRICS_TOKEN_VARIABLE}.`,
      );
    return;
  }
  const peer = peerAddressOf(request);
  const local = peer !== null && isLoopback(peer) && forwardedAddresses(request).every(isLoopback);
  if (!local)
    throw new RequestError(
      "forbidden",
      `Metrics are served to this machine only while ${METRICS_TOKEN_VARIABLE} is unset: set it and scrape with "Authorization: Bearer <token>".`,
    );
}

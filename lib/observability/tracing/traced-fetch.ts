import "server-only";
import type { GuardedFetch } from "@/net";
import { outgoingTraceHeaders } from "./propagation";

/**
 * The outbound fetch of API and Web blocks, `services.fetch` and the HTTP tools, sending the
 * `traceparent` of the block it is called from (while traces are exported; a request that sets
 * its own keeps it). Hosts the operator lists as external never receive one.
 */
export function tracedFetch(fetch: GuardedFetch, external: (host: string) => boolean): GuardedFetch {
  return (request) => {
    const headers = outgoingTraceHeaders(request.url, external);
    if (!headers.traceparent) return fetch(request);
    const own = new Set(Object.keys(request.headers ?? {}).map((name) => name.toLowerCase()));
    const added = Object.fromEntries(Object.entries(headers).filter(([name]) => !own.has(name)));
    return fetch({ ...request, headers: { ...request.headers, ...added } });
  };
}

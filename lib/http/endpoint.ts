import "server-only";
import type { Caller } from "@/lib/auth";
import { handleErrors } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { guardRequest, type RequestGuardOptions } from "./request-guard";

/** What a route without dynamic segments receives as params. */
export type NoParams = Record<string, never>;

declare const answersErrors: unique symbol;

/**
 * One API operation: the request and its route's params in, a response out. Only `endpoint()`
 * makes one, so every endpoint is guarded and answers a thrown error with the contract's error
 * body, and `route()` cannot bind anything else. `route()` passes the caller it authenticated
 * (session or API key) as the third argument; a public endpoint gets none.
 */
export type Endpoint<Params = NoParams> = ((request: Request, params: Params, caller?: Caller) => Promise<Response>) & {
  readonly [answersErrors]: true;
  /** Who may call it: `public` (health, the auth routes) or `signed-in` (everything else). */
  readonly access: EndpointAccess;
  /** The guard's settings, for `route()` to apply before it asks who is calling. */
  readonly guard: RequestGuardOptions;
};

export type EndpointAccess = "public" | "signed-in";

/**
 * How an endpoint differs from the default (JSON bodies, same-origin only):
 * `{ body: "multipart" }` for an upload; `{ cors: "public" }` for a route other sites call
 * (public chat, hooks; none yet), which must then be authorised by what the request names and
 * never by a cookie, and also needs an OPTIONS export answering the preflight.
 */
export type EndpointOptions = Partial<RequestGuardOptions> & { access?: EndpointAccess };

/** Headers that would let another site's page read an answer (or pass a preflight). */
function withoutCorsHeaders(response: Response): Response {
  const names = [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
  if (names.length === 0) return response;
  const headers = new Headers(response.headers);
  for (const name of names) headers.delete(name);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function withPublicCors(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", "*");
  headers.delete("access-control-allow-credentials");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Makes an endpoint of a handler. Before the handler runs, the request guard refuses a foreign
 * Host (421), a change from another site (403) and a body of another media type (415); whatever
 * the guard or the handler throws goes through errorResponse. Answers carry no CORS header unless
 * the endpoint is public.
 */
export function endpoint<Params = NoParams>(
  handler: (request: Request, params: Params, caller: Caller | undefined) => Promise<Response>,
  options: EndpointOptions = {},
): Endpoint<Params> {
  const guard: RequestGuardOptions = { body: options.body ?? "json", cors: options.cors ?? "same-origin" };
  const guarded = handleErrors(async (request: Request, params: Params, caller: Caller | undefined) => {
    guardRequest(request, guard, hostPolicyFromEnvironment());
    return handler(request, params, caller);
  });
  const answer = guard.cors === "public" ? withPublicCors : withoutCorsHeaders;
  const bound = async (request: Request, params: Params, caller?: Caller) => answer(await guarded(request, params, caller));
  return Object.assign(bound, { access: options.access ?? "signed-in", guard }) as Endpoint<Params>;
}

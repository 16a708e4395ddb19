import "server-only";
import { roleAtLeast, type WorkspaceRole } from "@/contract";
import type { Caller, Member } from "@/lib/auth";
import { handleErrors, RequestError } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { guardRequest, type RequestGuardOptions } from "./request-guard";

/** What a route without dynamic segments receives as params. */
export type NoParams = Record<string, never>;

declare const answersErrors: unique symbol;

/**
 * Who may call an endpoint: `public` (health, the auth routes), `user` (any signed-in person, in no
 * particular workspace: listing and creating one's workspaces) or `member` (everything over stored
 * data: the caller acts in one workspace with a role).
 */
export type EndpointAccess = "public" | "user" | "member";

/**
 * One API operation: the request and its route's params in, a response out. Only the functions
 * of this file make one, so every endpoint is guarded, checks its caller's role and answers a
 * thrown error with the contract's error body, and `route()` cannot bind anything else. `route()`
 * passes the caller it authenticated (session or API key, with the workspace it acts in) as the
 * third argument; a public endpoint gets none.
 */
export type Endpoint<Params = NoParams> = ((request: Request, params: Params, caller?: Caller | Member) => Promise<Response>) & {
  readonly [answersErrors]: true;
  readonly access: EndpointAccess;
  /** The guard's settings, for `route()` to apply before it asks who is calling. */
  readonly guard: RequestGuardOptions;
  /** The `WWW-Authenticate` challenge `route()` adds to a 401 (the MCP endpoint's clients read it). */
  readonly challenge?: string;
};

/**
 * How an endpoint differs from the default (JSON bodies, same-origin only, editors for changes):
 * `{ body: "multipart" }` for an upload (`"any"`: the endpoint checks the media type itself, for a
 * public hook only); `{ cors: "public" }` for a route other sites call
 * (public chat, hooks), which must then be authorised by what the request names and never by a
 * cookie, and also needs an OPTIONS export answering the preflight; `{ role }` for the weakest
 * role that may call it.
 */
export type EndpointOptions = Partial<RequestGuardOptions> & {
  /**
   * The weakest role allowed. Default: `viewer` for GET and HEAD, `editor` for anything else, so
   * a viewer can change nothing unless an endpoint says otherwise (a search sent as POST).
   */
  role?: WorkspaceRole;
  /** A `WWW-Authenticate` challenge for its 401 answers (`Bearer realm="trellis"`). */
  challenge?: string;
};

const READS = new Set(["GET", "HEAD"]);

export const UNAUTHENTICATED_MESSAGE = "Sign in or send an API key (Authorization: Bearer) to use this API.";

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

/** The weakest role an endpoint accepts for this request. */
export function requiredRole(request: Request, options: Pick<EndpointOptions, "role">): WorkspaceRole {
  return options.role ?? (READS.has(request.method) ? "viewer" : "editor");
}

/** A member's role must reach the endpoint's; checked before the handler sees the request. */
function checkRole(request: Request, member: Member, options: EndpointOptions): void {
  const needed = requiredRole(request, options);
  if (!roleAtLeast(member.workspace.role, needed)) {
    throw new RequestError(
      "forbidden",
      `Your role in this workspace (${member.workspace.role}) cannot do this: it needs ${needed}${needed === "owner" ? "" : " or above"}.`,
    );
  }
}

function isMember(caller: Caller | Member | undefined): caller is Member {
  return Boolean(caller && "workspace" in caller && caller.workspace);
}

function make<Params>(
  access: EndpointAccess,
  handler: (request: Request, params: Params, caller: Caller | Member | undefined) => Promise<Response>,
  options: EndpointOptions,
): Endpoint<Params> {
  const guard: RequestGuardOptions = { body: options.body ?? "json", cors: options.cors ?? "same-origin" };
  if (guard.body === "any" && (guard.cors !== "public" || access !== "public")) {
    // A body of any type from any page is only harmless where no cookie can authorise it.
    throw new Error('body: "any" is only for a public endpoint with cors: "public"');
  }
  const guarded = handleErrors(async (request: Request, params: Params, caller: Caller | Member | undefined) => {
    guardRequest(request, guard, hostPolicyFromEnvironment());
    if (access !== "public" && !caller) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
    if (access === "member") {
      if (!isMember(caller)) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
      checkRole(request, caller, options);
    }
    return handler(request, params, caller);
  });
  const answer = guard.cors === "public" ? withPublicCors : withoutCorsHeaders;
  const bound = async (request: Request, params: Params, caller?: Caller | Member) => answer(await guarded(request, params, caller));
  return Object.assign(bound, { access, guard, ...(options.challenge ? { challenge: options.challenge } : {}) }) as Endpoint<Params>;
}

/**
 * An endpoint over a workspace's data: the handler gets the member calling, whose role has been
 * checked against `options.role` (by default: viewers read, editors change). Before the handler
 * runs, the request guard refuses a foreign Host (421), a change from another site (403) and a
 * body of another media type (415); whatever the guard or the handler throws goes through
 * errorResponse. Answers carry no CORS header unless the endpoint is public.
 */
export function endpoint<Params = NoParams>(
  handler: (request: Request, params: Params, member: Member) => Promise<Response>,
  options: EndpointOptions = {},
): Endpoint<Params> {
  return make<Params>("member", (request, params, caller) => handler(request, params, caller as Member), options);
}

/** An endpoint for any signed-in person, acting in no particular workspace. */
export function userEndpoint<Params = NoParams>(
  handler: (request: Request, params: Params, caller: Caller) => Promise<Response>,
  options: Partial<RequestGuardOptions> = {},
): Endpoint<Params> {
  return make<Params>("user", (request, params, caller) => handler(request, params, caller as Caller), options);
}

/** An endpoint anyone may call (health, the auth routes, invitation links): guarded, never authenticated. */
export function publicEndpoint<Params = NoParams>(
  handler: (request: Request, params: Params) => Promise<Response>,
  options: Partial<RequestGuardOptions> = {},
): Endpoint<Params> {
  return make<Params>("public", (request, params) => handler(request, params), options);
}

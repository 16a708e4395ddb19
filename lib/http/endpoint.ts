import "server-only";
import { roleAtLeast, type WorkspaceRole } from "@/contract";
import {
  operationById,
  type ApiOperation,
  type OperationAccess,
  type OperationById,
  type OperationId,
  type PathParams,
} from "@/contract/openapi";
import type { Caller, Member } from "@/lib/auth/callers";
import { handleErrors, RequestError } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { guardRequest, type RequestGuardOptions } from "./request-guard";

declare const answersErrors: unique symbol;

/** What binding needs of an operation's declaration (contract/openapi); better-auth's routes, not in the catalog, give only this. */
export type OperationDeclaration = Pick<
  ApiOperation,
  "operationId" | "path" | "access" | "role" | "cors" | "acceptsAnyBody" | "challenge" | "parameters"
> &
  Partial<Pick<ApiOperation, "method" | "request" | "answers">>;

/** Who an operation's handler is called with: a member (with the workspace and role it acts in), a signed-in person, or nobody. */
export type CallerOf<Access extends OperationAccess> = Access extends "member"
  ? Member
  : Access extends "signed-in"
    ? Caller
    : undefined;

export type EndpointHandler<Params, Who> = (request: Request, params: Params, caller: Who) => Promise<Response>;

/**
 * One declared operation with its handler bound: call it with a request, its path's params and the
 * caller, and it answers as the operation promises. Only the functions of this file make one, so
 * every endpoint runs the request guard, checks its caller against the access and role its
 * declaration publishes, and answers a thrown error with the contract's error body.
 */
export type Endpoint<Params = Record<string, string>> = ((
  request: Request,
  params: Params,
  caller?: Caller | Member,
) => Promise<Response>) & {
  readonly [answersErrors]: true;
  readonly operation: OperationDeclaration;
  /** The guard's settings, from the declaration: for a dispatcher to apply before it asks who is calling. */
  readonly guard: RequestGuardOptions;
  /** Access, role and the handler, for a request whose guard has run: what a dispatcher calls, inside its own error handling. */
  readonly afterGuard: (request: Request, params: Params, caller: Caller | Member | undefined) => Promise<Response>;
  /** Finishes any answer of this operation, an error included: CORS headers (public ones get them, others never) and the 401 challenge. */
  readonly finish: (response: Response) => Response;
};

export const UNAUTHENTICATED_MESSAGE = "Sign in or send an API key (Authorization: Bearer) to use this API.";

function withHeaders(response: Response, change: (headers: Headers) => void): Response {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Headers that would let another site's page read an answer (or pass a preflight). */
function withoutCorsHeaders(response: Response): Response {
  const names = [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
  if (names.length === 0) return response;
  return withHeaders(response, (headers) => names.forEach((name) => headers.delete(name)));
}

/** The answer headers a page of another site may read: those the declaration's answers name. */
export function exposedHeaders(operation: OperationDeclaration): string[] {
  return [
    ...new Set(
      (operation.answers ?? []).flatMap((answer) =>
        Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()),
      ),
    ),
  ];
}

function finisher(operation: OperationDeclaration): (response: Response) => Response {
  const exposed = exposedHeaders(operation);
  const cors =
    operation.cors === "public"
      ? (response: Response) =>
          withHeaders(response, (headers) => {
            headers.set("access-control-allow-origin", "*");
            headers.delete("access-control-allow-credentials");
            if (exposed.length > 0) headers.set("access-control-expose-headers", exposed.join(", "));
          })
      : withoutCorsHeaders;
  const { challenge } = operation;
  return (response) => {
    const answered = cors(response);
    return challenge && answered.status === 401
      ? withHeaders(answered, (headers) => headers.set("www-authenticate", challenge))
      : answered;
  };
}

/** The guard's settings an operation's declaration implies: its request's media type, and whether other sites may call it. */
function guardOf(operation: OperationDeclaration): RequestGuardOptions {
  const body = operation.acceptsAnyBody
    ? "any"
    : operation.request?.contentType === "multipart/form-data"
      ? "multipart"
      : "json";
  const cors = operation.cors ?? "same-origin";
  if ((body === "any" || cors === "public") && operation.access !== "public") {
    // Another site's page may send these, with the visitor's cookie: only what the request names may authorise them.
    throw new Error(`${operation.operationId}: cors "public" and a body of any type are only for a public operation`);
  }
  if (body === "any" && cors !== "public")
    throw new Error(`${operation.operationId}: a body of any type is only for an operation with cors "public"`);
  const alsoAccepts = operation.request?.alsoAccepts;
  return { body, cors, ...(alsoAccepts ? { alsoAccepts } : {}) };
}

function isMember(caller: Caller | Member | undefined): caller is Member {
  return Boolean(caller && "workspace" in caller && caller.workspace);
}

/** A member's role must reach the one the operation declares; checked before the handler sees the request. */
function checkRole(member: Member, needed: WorkspaceRole): void {
  if (!roleAtLeast(member.workspace.role, needed)) {
    throw new RequestError(
      "forbidden",
      `Your role in this workspace (${member.workspace.role}) cannot do this: it needs ${needed}${needed === "owner" ? "" : " or above"}.`,
    );
  }
}

/**
 * Binds a handler to a declaration. The declaration alone decides access, role, the guard's
 * settings, CORS and the 401 challenge, so what the OpenAPI document publishes is what is enforced.
 */
export function bindOperation<Params>(
  operation: OperationDeclaration,
  handler: EndpointHandler<Params, Caller | Member | undefined>,
): Endpoint<Params> {
  const guard = guardOf(operation);
  const { access, role } = operation;
  if (access === "member" && !role)
    throw new Error(`${operation.operationId}: a member operation declares the weakest role that may call it`);
  const afterGuard = async (request: Request, params: Params, caller: Caller | Member | undefined) => {
    if (access !== "public" && !caller) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
    if (access === "member") {
      if (!isMember(caller)) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
      checkRole(caller, role!);
    }
    return handler(request, params, caller);
  };
  const finish = finisher(operation);
  const guarded = handleErrors(async (request: Request, params: Params, caller: Caller | Member | undefined) => {
    guardRequest(request, guard, hostPolicyFromEnvironment());
    return afterGuard(request, params, caller);
  });
  const bound = async (request: Request, params: Params, caller?: Caller | Member) =>
    finish(await guarded(request, params, caller));
  return Object.assign(bound, { operation, guard, afterGuard, finish }) as unknown as Endpoint<Params>;
}

/**
 * The handler of a declared operation (contract/openapi/catalog-*.ts), by its id: its params are
 * its path's, and it is called with the caller its access names (a member whose role has been
 * checked, a signed-in person, or nobody for a public one). Before the handler runs, the request
 * guard refuses a foreign Host (421), a change from another site (403) and a body of another media
 * type (415); whatever the guard or the handler throws goes through errorResponse.
 */
export function endpoint<Id extends OperationId>(
  operationId: Id,
  handler: EndpointHandler<PathParams<OperationById<Id>["path"]>, CallerOf<OperationById<Id>["access"]>>,
): Endpoint<PathParams<OperationById<Id>["path"]>> & { readonly operation: OperationById<Id> } {
  return bindOperation(
    operationById(operationId),
    handler as EndpointHandler<PathParams<OperationById<Id>["path"]>, Caller | Member | undefined>,
  ) as Endpoint<PathParams<OperationById<Id>["path"]>> & { readonly operation: OperationById<Id> };
}

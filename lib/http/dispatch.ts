import "server-only";
import type { Caller, Member, WorkspaceAccess } from "@/lib/auth";
import { requestIdOf, withIncomingTrace, withLogContext } from "@/lib/observability";
import { UNAUTHENTICATED_MESSAGE } from "./endpoint";
import { errorResponse, handleErrors, RequestError } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { operationTable, type AnyEndpoint, type PathMatch } from "./operation-table";
import { guardRequest } from "./request-guard";

/** How a dispatcher finds who is calling: the app's reads API keys and sessions (lib/http/app-identify.ts). */
export interface Identify {
  /** The API key's or the session's caller, or null for none. */
  caller(request: Request): Promise<Caller | null>;
  /** The workspace a member operation's caller acts in, and its role there; throws when it has none. */
  workspace(caller: Caller, request: Request, params: Record<string, string>): Promise<WorkspaceAccess>;
}

export interface DispatchOptions {
  identify: Identify;
  /** An endpoint answering every path under a prefix that no declared operation has (better-auth's routes under /api/auth/). */
  fallback?: { prefix: string; endpoint: AnyEndpoint };
}

/** A server's one entry for the API: a request in, the answer out. Any HTTP server can call it. */
export type Dispatch = (request: Request) => Promise<Response>;

function notFound(request: Request, pathname: string): Response {
  return errorResponse(new RequestError("not_found", `There is no API operation at ${request.method} ${pathname}.`));
}

function allowedMethods(match: PathMatch): string[] {
  const methods = [...match.byMethod.keys()];
  return [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
}

/** 405 in the contract's error body, naming the methods the path answers (no error code of the engine is about HTTP methods). */
function methodNotAllowed(request: Request, match: PathMatch): Response {
  const message = `${match.path} does not answer ${request.method}; it answers ${[...match.byMethod.keys()].join(", ")}.`;
  return Response.json(
    { error: { code: "method_not_allowed", message, details: [] } },
    { status: 405, headers: { allow: allowedMethods(match).join(", ") } },
  );
}

/**
 * A preflight. Where an operation of the path is public to other sites (a hook), the browser is
 * told which methods and headers it may send (the declaration's header parameters); elsewhere the
 * answer names the methods and carries no CORS header, so another site's page may send nothing.
 */
function preflight(request: Request, match: PathMatch): Response {
  const open = [...match.byMethod.values()].filter((endpoint) => endpoint.operation.cors === "public");
  if (open.length === 0)
    return new Response(null, { status: 204, headers: { allow: allowedMethods(match).join(", ") } });
  const [first] = open;
  return first!.finish(
    handleErrorsNow(() => {
      guardRequest(request, first!.guard, hostPolicyFromEnvironment());
      const headers = open.flatMap((endpoint) =>
        (endpoint.operation.parameters ?? [])
          .filter((parameter) => parameter.in === "header")
          .map((parameter) => parameter.name.toLowerCase()),
      );
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-methods": [...open.map((endpoint) => endpoint.operation.method!), "OPTIONS"].join(", "),
          "access-control-allow-headers": ["content-type", ...new Set(headers)].join(", "),
          "access-control-max-age": "86400",
        },
      });
    }),
  );
}

function handleErrorsNow(answer: () => Response): Response {
  try {
    return answer();
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Answers a request by the declared operations: finds the operation by method and path, runs the
 * request guard once (a foreign Host or another site learns nothing, not even whether it is signed
 * in), finds the caller an operation that is not public needs (401 without one) and, for a member
 * operation, the workspace it acts in, then hands over to the endpoint, which checks the role and
 * runs the handler. Unknown paths are 404 and undeclared methods 405, both with the contract's body.
 */
export function createDispatcher(endpoints: readonly AnyEndpoint[], options: DispatchOptions): Dispatch {
  const table = operationTable(endpoints);
  const { identify, fallback } = options;

  const serve = async (request: Request, endpoint: AnyEndpoint, params: Record<string, string>) => {
    const answered = await handleErrors(async () => {
      guardRequest(request, endpoint.guard, hostPolicyFromEnvironment());
      let caller: Caller | Member | undefined;
      const { access } = endpoint.operation;
      if (access !== "public") {
        const found = await identify.caller(request);
        if (!found) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
        caller =
          access === "member" ? { ...found, workspace: await identify.workspace(found, request, params) } : found;
      }
      return endpoint.afterGuard(request, params as never, caller);
    })();
    return endpoint.finish(answered);
  };

  const dispatch: Dispatch = async (request) => {
    const { pathname } = new URL(request.url);
    const match = table.match(pathname);
    if (!match) {
      if (fallback && pathname.startsWith(fallback.prefix)) return serve(request, fallback.endpoint, {});
      return notFound(request, pathname);
    }
    if (request.method === "OPTIONS") return preflight(request, match);
    const head = request.method === "HEAD";
    const endpoint = match.byMethod.get(head ? "GET" : request.method);
    if (!endpoint) return methodNotAllowed(request, match);
    const answered = await serve(request, endpoint, match.params);
    if (!head) return answered;
    await answered.body?.cancel();
    return new Response(null, { status: answered.status, statusText: answered.statusText, headers: answered.headers });
  };
  // Every line logged while answering (and by work it starts) carries the request's id, which the answer names too;
  // with traces exported, what it starts (a run) is part of the caller's trace when it sent `traceparent`.
  return (request) => {
    const requestId = requestIdOf(request);
    return withLogContext({ requestId }, () =>
      withIncomingTrace(request, async () => withRequestId(await dispatch(request), requestId)),
    );
  };
}

/** The answer with `X-Request-Id`, so a caller can quote it and an operator find its lines. */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    // A response whose headers are fixed (one passed through from fetch) goes out as it is.
    return response;
  }
}

import "server-only";
import { callerOf, requestedWorkspace, workspaceAccess, type Caller, type Member } from "@/lib/auth";
import { getRepositories } from "@/lib/db";
import { UNAUTHENTICATED_MESSAGE, type Endpoint } from "./endpoint";
import { handleErrors, RequestError } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { guardRequest } from "./request-guard";

/**
 * Binds an endpoint as a Next.js route handler: the one place a request's caller and workspace are
 * found. The guard runs first (a foreign Host or another site learns nothing, not even whether it
 * is signed in), then an endpoint that is not public answers 401 without a caller: an API key
 * (`Authorization: Bearer`), else a session (callerOf). A member endpoint's caller also gets the
 * workspace it acts in and its role there (workspaceAccess); the endpoint checks the role. The
 * signature is the one Next checks route exports against (`{ params: Promise<...> }`).
 */
export function route<Params>(bound: Endpoint<Params>): (request: Request, context: { params: Promise<Params> }) => Promise<Response> {
  const checked = handleErrors(async (request: Request, params: Params) => {
    guardRequest(request, bound.guard, hostPolicyFromEnvironment());
    let caller: Caller | Member | undefined;
    if (bound.access !== "public") {
      caller = (await callerOf(request)) ?? undefined;
      if (!caller) throw new RequestError("unauthenticated", UNAUTHENTICATED_MESSAGE);
      if (bound.access === "member") {
        caller = { ...caller, workspace: await workspaceAccess(getRepositories().workspaces, caller, requestedWorkspace(request, params)) };
      }
    }
    return bound(request, params, caller);
  });
  return async (request, context) => {
    const response = await checked(request, await context.params);
    if (response.status !== 401 || !bound.challenge) return response;
    const headers = new Headers(response.headers);
    headers.set("www-authenticate", bound.challenge);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

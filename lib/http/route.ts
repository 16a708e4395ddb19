import "server-only";
import { callerOf, type Caller } from "@/lib/auth";
import type { Endpoint } from "./endpoint";
import { handleErrors, RequestError } from "./errors";
import { hostPolicyFromEnvironment } from "./host-policy";
import { guardRequest } from "./request-guard";

/**
 * Binds an endpoint as a Next.js route handler: the one place a request's caller is checked.
 * The guard runs first (a foreign Host or another site learns nothing, not even whether it is
 * signed in), then an endpoint that is not public answers 401 without a caller: an API key
 * (`Authorization: Bearer`), else a session (callerOf). The caller goes to the endpoint as its third
 * argument. The signature is the one Next checks route exports against (`{ params: Promise<...> }`).
 */
export function route<Params>(bound: Endpoint<Params>): (request: Request, context: { params: Promise<Params> }) => Promise<Response> {
  const checked = handleErrors(async (request: Request, params: Params) => {
    guardRequest(request, bound.guard, hostPolicyFromEnvironment());
    let caller: Caller | undefined;
    if (bound.access === "signed-in") {
      caller = (await callerOf(request)) ?? undefined;
      if (!caller) throw new RequestError("unauthenticated", "Sign in or send an API key (Authorization: Bearer) to use this API.");
    }
    return bound(request, params, caller);
  });
  return async (request, context) => checked(request, await context.params);
}

import "server-only";
import { bindOperation } from "@/lib/http/endpoint";
import { getAuth } from "./auth";

/**
 * /api/auth/*: better-auth's standard paths (sign-in/email, sign-up/email, sign-out, get-session;
 * docs/CONTRACT.md section 7), answered by its handler wherever no declared operation is (the
 * invitation links are). Its paths are better-auth's, so they are not in the OpenAPI catalog; it is
 * bound like any endpoint all the same, so the request guard refuses a foreign Host, a change from
 * another site and a body that is not JSON before better-auth reads anything.
 */
export const appAuthEndpoints = {
  handle: bindOperation({ operationId: "betterAuth", path: "/api/auth/{path}", access: "public" }, (request) =>
    getAuth().handler(request),
  ),
};

import "server-only";
import { publicEndpoint } from "@/lib/http/endpoint";
import { getAuth } from "./auth";

/**
 * /api/auth/[...all]: better-auth's standard paths (sign-in/email, sign-up/email, sign-out,
 * get-session; docs/CONTRACT.md section 7), answered by its handler. An endpoint like any other,
 * so the request guard refuses a foreign Host, a change from another site and a body that is not
 * JSON before better-auth reads anything.
 */
export const appAuthEndpoints = {
  handle: publicEndpoint<{ all: string[] }>((request) => getAuth().handler(request)),
};

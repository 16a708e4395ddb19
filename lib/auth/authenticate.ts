import "server-only";
import type { SessionUser } from "@/contract";
import { getAuth, type TrellisAuth } from "./auth";

/**
 * Who sent this API request, from its session cookie (better-auth's `api.getSession`), or null.
 * For the per-request access check; API keys (`Authorization: Bearer`) are not read here.
 */
export function sessionOf(request: Request, auth: TrellisAuth = getAuth()): Promise<SessionUser | null> {
  return auth.session(request.headers);
}

/** The same for a server component or server action: pass `await headers()` from next/headers. */
export function currentSession(headers: Headers, auth: TrellisAuth = getAuth()): Promise<SessionUser | null> {
  return auth.session(headers);
}

/** Whether the owner account exists; until it does, the app leads every visitor to /setup. */
export function ownerExists(auth: TrellisAuth = getAuth()): Promise<boolean> {
  return auth.ownerExists();
}

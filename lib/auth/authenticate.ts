import "server-only";
import type { SessionUser, WorkspaceRole } from "@/contract";
import type { WorkspaceReadCache } from "@/lib/cache";
import { getPrisma, type PrismaClient } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { callerOfApiKey, INVALID_API_KEY_MESSAGE } from "./api-keys";
import { getAuth, type TrellisAuth } from "./auth";

/** Who is calling an API route, and how they proved it. An API key belongs to one workspace. */
export type Caller = SessionUser &
  (
    | { via: "session" }
    /** `keyRole`: the key creator's role in the key's workspace when the key was checked (null: they left it). */
    | { via: "api-key"; apiKeyId: string; keyWorkspaceId: string; keyRole?: WorkspaceRole | null }
  );

/**
 * Who sent this API request: the user of its `Authorization: Bearer <api key>`, else of its
 * session cookie, else null (no credentials). A request that sends an Authorization header is
 * judged by it alone: a key that is malformed, unknown, revoked or expired (or another scheme)
 * throws `unauthenticated` with one message for all, and never falls back to the cookie.
 */
export async function callerOf(
  request: Request,
  options: { auth?: TrellisAuth; prisma?: PrismaClient; readCache?: WorkspaceReadCache } = {},
): Promise<Caller | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const key = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
    const caller = key ? await callerOfApiKey(options.prisma ?? getPrisma(), key, new Date(), options.readCache) : null;
    if (!caller) throw new RequestError("unauthenticated", INVALID_API_KEY_MESSAGE);
    const { apiKeyId, workspaceId, role, ...user } = caller;
    return { ...user, via: "api-key", apiKeyId, keyWorkspaceId: workspaceId, keyRole: role };
  }
  // No cookie, no session: answered without asking the database.
  if (!request.headers.has("cookie")) return null;
  const session = await sessionOf(request, options.auth);
  return session ? { ...session, via: "session" } : null;
}

/**
 * Who sent this API request, from its session cookie (better-auth's `api.getSession`), or null.
 * API keys (`Authorization: Bearer`) are not read here: the per-request check is callerOf.
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

import "server-only";
import { readCookie } from "@/lib/http/cookies";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER, type WorkspaceRole } from "@/contract";
import { TrellisError } from "@/executor";
import type { WorkspaceRepository } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import type { Caller } from "./authenticate";
import { INVALID_API_KEY_MESSAGE } from "./api-keys";

/** The workspace a request acts in, and the caller's role there. */
export interface WorkspaceAccess {
  id: string;
  role: WorkspaceRole;
}

/** A caller acting in a workspace: what every endpoint over stored data receives. */
export type Member = Caller & { workspace: WorkspaceAccess };

/** The workspace a request names: a route's `:workspaceId`, else the header, else (sessions only) the switcher's cookie. */
export function requestedWorkspace(
  request: Request,
  params: unknown,
): { id: string; from: "path" | "header" | "cookie" } | null {
  const fromPath =
    params && typeof params === "object" && "workspaceId" in params
      ? (params as { workspaceId: unknown }).workspaceId
      : undefined;
  if (typeof fromPath === "string" && fromPath) return { id: fromPath, from: "path" };
  const fromHeader = request.headers.get(WORKSPACE_HEADER)?.trim();
  if (fromHeader) return { id: fromHeader, from: "header" };
  const fromCookie = readCookie(request, WORKSPACE_COOKIE) ?? "";
  return fromCookie ? { id: fromCookie, from: "cookie" } : null;
}

function workspaceNotFound(id: string): TrellisError {
  return new TrellisError("not_found", `Workspace "${id}" was not found`);
}

/**
 * Where a caller acts, and with which role (docs/CONTRACT.md section 7). An API key acts in its
 * own workspace with its creator's role there today (a key whose creator left stops working); a
 * request that names another workspace gets 404. A session acts in the workspace it names (a
 * path, the header, else the switcher's cookie) when the user is a member, else in the user's
 * first workspace. A named workspace the user does not belong to answers 404, like an unknown
 * one, so ids of other workspaces tell nothing; a stale cookie falls back to the first.
 */
export async function workspaceAccess(
  workspaces: WorkspaceRepository,
  caller: Caller,
  requested: ReturnType<typeof requestedWorkspace>,
): Promise<WorkspaceAccess> {
  if (caller.via === "api-key") {
    if (requested && requested.from !== "cookie" && requested.id !== caller.keyWorkspaceId)
      throw workspaceNotFound(requested.id);
    // Read with the key itself in one query when the caller came from callerOf.
    const role =
      caller.keyRole !== undefined ? caller.keyRole : await workspaces.roleOf(caller.keyWorkspaceId, caller.userId);
    if (!role) throw new RequestError("unauthenticated", INVALID_API_KEY_MESSAGE);
    return { id: caller.keyWorkspaceId, role };
  }
  if (requested) {
    const role = await workspaces.roleOf(requested.id, caller.userId);
    if (role) return { id: requested.id, role };
    if (requested.from !== "cookie") throw workspaceNotFound(requested.id);
  }
  const [first] = await workspaces.listForUser(caller.userId);
  if (!first)
    throw new TrellisError(
      "forbidden",
      "You are not a member of any workspace: ask an admin for an invitation, or create a workspace.",
    );
  return { id: first.id, role: first.role };
}

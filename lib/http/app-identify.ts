import "server-only";
import { callerOf, requestedWorkspace, workspaceAccess } from "@/lib/auth";
import { getRepositories } from "@/lib/db";
import type { Identify } from "./dispatch";

/**
 * The app's one place a request's caller and workspace are found: an API key (`Authorization:
 * Bearer`), else a session (callerOf); a member operation's caller also gets the workspace it acts
 * in (the path's, the `x-trellis-workspace` header's, the cookie's) and its role there.
 */
export const appIdentify: Identify = {
  caller: (request) => callerOf(request),
  workspace: (caller, request, params) =>
    workspaceAccess(getRepositories().workspaces, caller, requestedWorkspace(request, params)),
};

import "server-only";
import { z } from "zod";
import {
  changeRoleRequestSchema,
  inviteMemberRequestSchema,
  workspaceRequestSchema,
  type CreatedInvitation,
  type WorkspaceMembersPage,
  type WorkspaceSummary,
} from "@/contract";
import { TrellisError } from "@/executor";
import type { WorkspaceRepository } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { invitationLink } from "./invitation-link";

const MAX_BODY_BYTES = 16 * 1024;

const workspacePages = listPaging("workspaces", timeAndIdPosition);
const memberPages = listPaging(
  "members",
  z.object({ members: timeAndIdPosition.nullable(), invitations: timeAndIdPosition.nullable() }),
);

/**
 * Workspaces and their members (docs/CONTRACT.md section 7). Routes under
 * /api/workspaces/:workspaceId act in that workspace (route() finds the caller's role there and a
 * workspace the caller does not belong to answers 404); admins manage members, owners manage
 * owners (the rules live in WorkspaceRepository, inside the transactions that change members).
 */
export function workspaceEndpoints(deps: () => { workspaces: WorkspaceRepository; publicUrl?: string }) {
  return {
    /** The caller's workspaces with the caller's role in each, the default first. */
    list: endpoint("listWorkspaces", async (request, _params, caller) =>
      Response.json(
        workspacePages.answer(
          "workspaces",
          await deps().workspaces.pageForUser(caller.userId, workspacePages.read(request)),
        ),
      ),
    ),
    /** A new workspace, owned by the caller. An API key acts in its own workspace only, so it cannot make one. */
    create: endpoint("createWorkspace", async (request, _params, caller) => {
      if (caller.via === "api-key")
        throw new TrellisError("forbidden", "An API key acts in its own workspace: sign in to create a workspace.");
      const { name } = await readJsonRequest(request, workspaceRequestSchema, {
        subject: "The workspace",
        maxBytes: MAX_BODY_BYTES,
      });
      return Response.json(await deps().workspaces.create(caller.userId, name), { status: 201 });
    }),
    get: endpoint("getWorkspace", async (_request, _params, { workspace, userId }) => {
      const found = (await deps().workspaces.listForUser(userId)).find((candidate) => candidate.id === workspace.id);
      if (!found) throw new TrellisError("not_found", `Workspace "${workspace.id}" was not found`);
      return Response.json(found satisfies WorkspaceSummary);
    }),
    rename: endpoint("renameWorkspace", async (request, _params, { workspace, userId }) => {
      const { name } = await readJsonRequest(request, workspaceRequestSchema, {
        subject: "The workspace",
        maxBytes: MAX_BODY_BYTES,
      });
      await deps().workspaces.rename(workspace.id, name);
      const renamed = (await deps().workspaces.listForUser(userId)).find((candidate) => candidate.id === workspace.id);
      return Response.json(renamed);
    }),
    /** Members and open invitations; every member may see who else is in the workspace. */
    members: endpoint("listMembers", async (request, _params, { workspace }) => {
      const { members, invitations, next } = await deps().workspaces.members(workspace.id, memberPages.read(request));
      const page: WorkspaceMembersPage = { members, invitations, nextCursor: next && memberPages.encode(next) };
      return Response.json(page);
    }),
    /** 201 with the invitation and its link (shown this once; no mail is sent). 409 for a member's email. */
    invite: endpoint("inviteMember", async (request, _params, { workspace, userId }) => {
      const body = await readJsonRequest(request, inviteMemberRequestSchema, {
        subject: "The invitation",
        maxBytes: MAX_BODY_BYTES,
      });
      if (body.role === "owner" && workspace.role !== "owner")
        throw new TrellisError("forbidden", "Only an owner can invite an owner.");
      const { invitation, token } = await deps().workspaces.invite(workspace.id, {
        email: body.email,
        role: body.role,
        invitedById: userId,
      });
      const created: CreatedInvitation = { ...invitation, link: invitationLink(request, token, deps().publicUrl) };
      return Response.json(created, { status: 201 });
    }),
    changeRole: endpoint("changeMemberRole", async (request, params, { workspace, userId }) => {
      const { role } = await readJsonRequest(request, changeRoleRequestSchema, {
        subject: "The role",
        maxBytes: MAX_BODY_BYTES,
      });
      return Response.json(await deps().workspaces.changeRole(workspace.id, params.userId, role, { userId }));
    }),
    /** Removes a member; any member may remove themselves (leave), admins anyone but an owner, owners anyone. */
    removeMember: endpoint("removeMember", async (_request, params, { workspace, userId }) => {
      if (params.userId !== userId && workspace.role !== "owner" && workspace.role !== "admin") {
        throw new TrellisError(
          "forbidden",
          `Your role in this workspace (${workspace.role}) cannot remove members: it needs admin or above.`,
        );
      }
      await deps().workspaces.removeMember(workspace.id, params.userId, { userId });
      return new Response(null, { status: 204 });
    }),
    revokeInvitation: endpoint("revokeInvitation", async (_request, params, { workspace }) => {
      await deps().workspaces.revokeInvitation(workspace.id, params.invitationId);
      return new Response(null, { status: 204 });
    }),
  };
}

export type WorkspaceEndpoints = ReturnType<typeof workspaceEndpoints>;

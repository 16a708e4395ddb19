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
import type { AuditRequest } from "@/lib/audit";
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
export function workspaceEndpoints(
  deps: () => { workspaces: WorkspaceRepository; publicUrl?: string },
  /** Records each change to members in the workspace's audit log, in the changing transaction where there is one. */
  audit: AuditRequest,
) {
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
    invite: endpoint("inviteMember", async (request, _params, member) => {
      const { workspace, userId } = member;
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
      await audit(request, member, {
        action: "member.invite",
        object: { type: "invitation", id: invitation.id, name: invitation.email },
        summary: { after: { email: invitation.email, role: invitation.role } },
      });
      const created: CreatedInvitation = { ...invitation, link: invitationLink(request, token, deps().publicUrl) };
      return Response.json(created, { status: 201 });
    }),
    changeRole: endpoint("changeMemberRole", async (request, params, member) => {
      const { role } = await readJsonRequest(request, changeRoleRequestSchema, {
        subject: "The role",
        maxBytes: MAX_BODY_BYTES,
      });
      const changed = await deps().workspaces.changeRole(
        member.workspace.id,
        params.userId,
        role,
        { userId: member.userId },
        (tx, { member: updated, before }) =>
          audit(
            request,
            member,
            {
              action: "member.role",
              object: { type: "member", id: params.userId, name: updated.name },
              summary: { before: { role: before }, after: { role } },
            },
            tx,
          ),
      );
      return Response.json(changed);
    }),
    /** Removes a member; any member may remove themselves (leave), admins anyone but an owner, owners anyone. */
    removeMember: endpoint("removeMember", async (request, params, member) => {
      const { workspace, userId } = member;
      if (params.userId !== userId && workspace.role !== "owner" && workspace.role !== "admin") {
        throw new TrellisError(
          "forbidden",
          `Your role in this workspace (${workspace.role}) cannot remove members: it needs admin or above.`,
        );
      }
      await deps().workspaces.removeMember(workspace.id, params.userId, { userId }, (tx, removed) =>
        audit(
          request,
          member,
          {
            action: "member.remove",
            object: { type: "member", id: params.userId, name: removed.name },
            summary: {
              before: { email: removed.email, role: removed.role },
              after: { apiKeysRevoked: removed.keysRevoked, sessionsEnded: removed.sessionsEnded },
            },
          },
          tx,
        ),
      );
      return new Response(null, { status: 204 });
    }),
    revokeInvitation: endpoint("revokeInvitation", async (request, params, member) => {
      await deps().workspaces.revokeInvitation(member.workspace.id, params.invitationId);
      await audit(request, member, {
        action: "invitation.revoke",
        object: { type: "invitation", id: params.invitationId, name: null },
      });
      return new Response(null, { status: 204 });
    }),
  };
}

export type WorkspaceEndpoints = ReturnType<typeof workspaceEndpoints>;

import { API_KEY_PREFIX, createApiKeyRequestSchema } from "../api-keys";
import { putSecretRequestSchema, secretNameSchema } from "../secrets";
import {
  acceptInvitationRequestSchema,
  changeRoleRequestSchema,
  inviteMemberRequestSchema,
  workspaceRequestSchema,
} from "../workspaces";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import {
  apiKeyPageSchema,
  createdApiKeySchema,
  createdInvitationSchema,
  invitationAcceptedSchema,
  invitationPreviewSchema,
  secretPageSchema,
  workspaceMemberSchema,
  workspaceMembersPageSchema,
  workspacePageSchema,
  workspaceSummarySchema,
} from "./schemas-workspaces";

/**
 * Secrets, API keys, workspaces and invitations (docs/CONTRACT.md sections 7 and 8):
 * lib/secrets/secret-endpoints.ts, lib/api-keys/api-key-endpoints.ts, lib/workspaces/.
 */

const secretName = pathParameter("name", "The secret's name, as `{{NAME}}` references it.", secretNameSchema);
const workspaceId = pathParameter("workspaceId", "The workspace's id: the request acts in it.");
const token = pathParameter("token", "The invitation link's token: the credential, stored only hashed.");

const SECRET_OPERATIONS = [
  {
    operationId: "listSecrets",
    method: "GET",
    path: "/api/secrets",
    tag: "Secrets",
    summary: "List secrets by name",
    description: "Names and dates only: a value is never answered.",
    access: "member",
    role: "viewer",
    parameters: PAGE_PARAMETERS,
    answers: [{ status: 200, description: "A page of secrets.", schema: secretPageSchema }],
  },
  {
    operationId: "putSecret",
    method: "PUT",
    path: "/api/secrets/{name}",
    tag: "Secrets",
    summary: "Create a secret or replace its value",
    description:
      "Stored encrypted. A run reads the secrets stored when it starts, so a value set here applies from the next run on.",
    access: "member",
    role: "editor",
    parameters: [secretName],
    request: { schema: putSecretRequestSchema, required: true, example: { value: "sk-example" } },
    answers: [{ status: 204, description: "Stored." }],
  },
  {
    operationId: "deleteSecret",
    method: "DELETE",
    path: "/api/secrets/{name}",
    tag: "Secrets",
    summary: "Delete a secret",
    access: "member",
    role: "editor",
    parameters: [secretName],
    answers: [{ status: 204, description: "Deleted." }],
    errors: [400],
  },
] as const satisfies readonly ApiOperation[];

const API_KEY_OPERATIONS = [
  {
    operationId: "listApiKeys",
    method: "GET",
    path: "/api/api-keys",
    tag: "API keys",
    summary: "List your API keys in this workspace, newest first",
    access: "member",
    role: "viewer",
    parameters: PAGE_PARAMETERS,
    answers: [{ status: 200, description: "A page of keys: prefixes, never the keys.", schema: apiKeyPageSchema }],
  },
  {
    operationId: "createApiKey",
    method: "POST",
    path: "/api/api-keys",
    tag: "API keys",
    summary: "Create an API key",
    description: `The key (\`${API_KEY_PREFIX}…\`) acts in this workspace with your role here, until it is revoked, expires or you leave the workspace. Any member may make one: it can do no more than its maker.`,
    access: "member",
    // A key acts with its creator's role, so a viewer may make one: it can only read.
    role: "viewer",
    request: {
      schema: createApiKeyRequestSchema,
      required: true,
      example: { name: "CI deploy", expiresAt: "2030-01-31T00:00:00Z" },
    },
    answers: [{ status: 201, description: "The key, shown this once.", schema: createdApiKeySchema }],
  },
  {
    operationId: "revokeApiKey",
    method: "DELETE",
    path: "/api/api-keys/{id}",
    tag: "API keys",
    summary: "Revoke an API key",
    description: "At once: the next request with it answers 401. Another user's key answers 404 like an unknown id.",
    access: "member",
    role: "viewer",
    parameters: [pathParameter("id", "The key's id (not the key).")],
    answers: [{ status: 204, description: "Revoked." }],
  },
] as const satisfies readonly ApiOperation[];

const MEMBERSHIP_OPERATIONS = [
  {
    operationId: "listWorkspaces",
    method: "GET",
    path: "/api/workspaces",
    tag: "Workspaces",
    summary: "List your workspaces, in the order joined",
    access: "signed-in",
    parameters: PAGE_PARAMETERS,
    answers: [
      { status: 200, description: "A page of workspaces, each with your role in it.", schema: workspacePageSchema },
    ],
  },
  {
    operationId: "createWorkspace",
    method: "POST",
    path: "/api/workspaces",
    tag: "Workspaces",
    summary: "Create a workspace you own",
    description: "Sessions only: an API key acts in its own workspace and answers 403.",
    access: "signed-in",
    request: { schema: workspaceRequestSchema, required: true, example: { name: "Research" } },
    answers: [{ status: 201, description: "The new workspace.", schema: workspaceSummarySchema }],
    errors: [403],
  },
  {
    operationId: "getWorkspace",
    method: "GET",
    path: "/api/workspaces/{workspaceId}",
    tag: "Workspaces",
    summary: "Read a workspace",
    access: "member",
    role: "viewer",
    parameters: [workspaceId],
    answers: [{ status: 200, description: "The workspace with your role in it.", schema: workspaceSummarySchema }],
  },
  {
    operationId: "renameWorkspace",
    method: "PATCH",
    path: "/api/workspaces/{workspaceId}",
    tag: "Workspaces",
    summary: "Rename a workspace",
    access: "member",
    role: "admin",
    parameters: [workspaceId],
    request: { schema: workspaceRequestSchema, required: true, example: { name: "Research (2025)" } },
    answers: [{ status: 200, description: "The renamed workspace.", schema: workspaceSummarySchema }],
  },
  {
    operationId: "listMembers",
    method: "GET",
    path: "/api/workspaces/{workspaceId}/members",
    tag: "Workspaces",
    summary: "List members and open invitations",
    description: "Pages both lists together: up to `limit` of each per page, one cursor for both.",
    access: "member",
    role: "viewer",
    parameters: [workspaceId, ...PAGE_PARAMETERS],
    answers: [{ status: 200, description: "A page of members and invitations.", schema: workspaceMembersPageSchema }],
  },
  {
    operationId: "inviteMember",
    method: "POST",
    path: "/api/workspaces/{workspaceId}/members",
    tag: "Workspaces",
    summary: "Invite someone by email",
    description:
      "No mail is sent: give the invitee the link. Only an owner may invite an owner; an email that belongs to a member answers 409.",
    access: "member",
    role: "admin",
    parameters: [workspaceId],
    request: {
      schema: inviteMemberRequestSchema,
      required: true,
      example: { email: "ada@example.com", role: "editor" },
    },
    answers: [
      { status: 201, description: "The invitation and its link, shown this once.", schema: createdInvitationSchema },
    ],
    errors: [409],
  },
  {
    operationId: "changeMemberRole",
    method: "PATCH",
    path: "/api/workspaces/{workspaceId}/members/{userId}",
    tag: "Workspaces",
    summary: "Change a member's role",
    description: "Owners manage owners; a workspace always keeps one owner (409).",
    access: "member",
    role: "admin",
    parameters: [workspaceId, pathParameter("userId", "The member's user id.")],
    request: { schema: changeRoleRequestSchema, required: true, example: { role: "viewer" } },
    answers: [{ status: 200, description: "The member with the new role.", schema: workspaceMemberSchema }],
    errors: [409],
  },
  {
    operationId: "removeMember",
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/members/{userId}",
    tag: "Workspaces",
    summary: "Remove a member, or leave",
    description:
      "Any member may remove themselves; admins anyone but an owner; owners anyone. The last owner stays (409).",
    access: "member",
    role: "viewer",
    parameters: [workspaceId, pathParameter("userId", "The member's user id (your own to leave).")],
    answers: [{ status: 204, description: "Removed." }],
    errors: [409],
  },
  {
    operationId: "revokeInvitation",
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/invitations/{invitationId}",
    tag: "Workspaces",
    summary: "Revoke an open invitation",
    access: "member",
    role: "admin",
    parameters: [workspaceId, pathParameter("invitationId", "The invitation's id.")],
    answers: [{ status: 204, description: "Revoked: its link no longer works." }],
  },
] as const satisfies readonly ApiOperation[];

const INVITATION_OPERATIONS = [
  {
    operationId: "previewInvitation",
    method: "GET",
    path: "/api/auth/invitations/{token}",
    tag: "Invitations",
    summary: "What an invitation is for",
    access: "public",
    parameters: [token],
    answers: [{ status: 200, description: "The invitation as its page shows it.", schema: invitationPreviewSchema }],
    errors: [404],
  },
  {
    operationId: "acceptInvitation",
    method: "POST",
    path: "/api/auth/invitations/{token}",
    tag: "Invitations",
    summary: "Accept an invitation",
    description:
      "Signed in as the invited person: send nothing. Without an account: send a name and password to create it (then sign in as usual). An account that exists answers 409; a session of another person 403; neither a session nor a password 401.",
    access: "public",
    parameters: [token],
    request: {
      schema: acceptInvitationRequestSchema,
      required: false,
      example: { name: "Ada Lovelace", password: "correct horse battery" },
    },
    answers: [
      { status: 200, description: "Joined: the workspace and the invited email.", schema: invitationAcceptedSchema },
    ],
    errors: [401, 403, 404, 409],
  },
] as const satisfies readonly ApiOperation[];

export const WORKSPACE_OPERATIONS = [
  ...SECRET_OPERATIONS,
  ...API_KEY_OPERATIONS,
  ...MEMBERSHIP_OPERATIONS,
  ...INVITATION_OPERATIONS,
] as const satisfies readonly ApiOperation[];

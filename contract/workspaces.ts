import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

/**
 * Workspaces, members and invitations on the wire (docs/CONTRACT.md section 7). Everything stored
 * belongs to one workspace; a person acts in it with a role.
 */

/** Strongest first. */
export const WORKSPACE_ROLES = ["owner", "admin", "editor", "viewer"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** What each role may do, as the members page states it. */
export const WORKSPACE_ROLE_DESCRIPTIONS: Record<WorkspaceRole, string> = {
  owner: "everything, including making owners and removing admins",
  admin: "manage members and invitations, and everything an editor does",
  editor: "build and run workflows, knowledge bases, secrets and API keys",
  viewer: "read only: sees workflows, runs and knowledge bases, changes nothing",
};

/** Whether `role` is `least` or stronger. */
export function roleAtLeast(role: WorkspaceRole, least: WorkspaceRole): boolean {
  return WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(least);
}

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === "string" && (WORKSPACE_ROLES as readonly string[]).includes(value);
}

/** A session names the workspace it acts in with this header... */
export const WORKSPACE_HEADER = "x-trellis-workspace";
/** ...else with this cookie, which the app's workspace switcher sets (an EventSource cannot send headers). */
export const WORKSPACE_COOKIE = "trellis-workspace";

export const WORKSPACE_NAME_MAX_LENGTH = 100;

const workspaceName = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, "must not be empty")
  .max(WORKSPACE_NAME_MAX_LENGTH, `must be at most ${WORKSPACE_NAME_MAX_LENGTH} characters`);

const role = z.enum(WORKSPACE_ROLES, { error: `must be one of ${WORKSPACE_ROLES.join(", ")}` });

/** POST /api/workspaces, PATCH /api/workspaces/:workspaceId */
export const workspaceRequestSchema = z.strictObject({ name: workspaceName });
export type WorkspaceRequest = z.input<typeof workspaceRequestSchema>;

/** POST /api/workspaces/:workspaceId/members: invites by email (an existing member answers 409). */
export const inviteMemberRequestSchema = z.strictObject({
  email: z.email({ error: "must be an email address" }).trim().toLowerCase().max(254, "must be at most 254 characters"),
  role,
});
export type InviteMemberRequest = z.input<typeof inviteMemberRequestSchema>;

/** PATCH /api/workspaces/:workspaceId/members/:userId */
export const changeRoleRequestSchema = z.strictObject({ role });
export type ChangeRoleRequest = z.input<typeof changeRoleRequestSchema>;

/** POST /api/auth/invitations/:token: a new user sends a name and password; a signed-in invitee sends nothing. */
export const acceptInvitationRequestSchema = z.strictObject({
  name: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .optional(),
  password: z.string({ error: "must be a string" }).optional(),
});
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequestSchema>;

const roleSchema = z.enum(WORKSPACE_ROLES);

/** A workspace the caller belongs to, with the caller's role in it. */
export const workspaceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema.describe("The caller's role in it."),
  createdAt: timestampSchema,
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

export const workspacePageSchema = pageSchema("workspaces", workspaceSummarySchema);

export const workspaceMemberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  joinedAt: timestampSchema,
});
export type WorkspaceMember = z.infer<typeof workspaceMemberSchema>;

/** An invitation not yet accepted. */
export const workspaceInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().nullable(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
});
export type WorkspaceInvitation = z.infer<typeof workspaceInvitationSchema>;

/** POST /api/workspaces/:workspaceId/members answers 201 with the invitation and its link, shown this once. */
export const createdInvitationSchema = workspaceInvitationSchema.extend({
  link: z.string().describe("The page the invitee opens to join; shown this once (no mail is sent)."),
});
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;

/**
 * GET /api/workspaces/:workspaceId/members: up to `limit` of each list, members oldest first and
 * invitations newest first; one cursor goes on with both, and is null once both are shown whole.
 */
export const workspaceMembersPageSchema = z.object({
  members: z.array(workspaceMemberSchema).describe("Oldest first."),
  invitations: z.array(workspaceInvitationSchema).describe("Open invitations, newest first."),
  nextCursor: z.string().nullable().describe("Goes on with both lists; null once both are shown whole."),
});
export type WorkspaceMembersPage = z.infer<typeof workspaceMembersPageSchema>;

/** Everyone in a workspace and every open invitation. */
export type WorkspaceMembers = Omit<WorkspaceMembersPage, "nextCursor">;

/** GET /api/auth/invitations/:token: what the invitation page shows before accepting. */
export const invitationPreviewSchema = z.object({
  workspaceName: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().nullable(),
  expiresAt: timestampSchema,
  accountExists: z
    .boolean()
    .describe("Whether an account with the invited email exists: sign in and accept, else send a name and password."),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** POST /api/auth/invitations/:token. */
export const invitationAcceptedSchema = z.object({ workspaceId: z.string(), email: z.string() });

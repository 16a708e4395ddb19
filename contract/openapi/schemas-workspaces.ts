import { z } from "zod";
import type { ApiKeySummary, CreatedApiKey } from "../api-keys";
import type { ListPage } from "../pagination";
import type { SecretListEntry } from "../secrets";
import type { SameWireType } from "./same-type";
import {
  WORKSPACE_ROLES,
  type CreatedInvitation,
  type InvitationPreview,
  type WorkspaceInvitation,
  type WorkspaceMember,
  type WorkspaceMembersPage,
  type WorkspaceSummary,
} from "../workspaces";
import { pageSchema, timestampSchema } from "./schemas-common";

/** Answers of the workspace, member, invitation, secret and API key endpoints (docs/CONTRACT.md sections 7 and 8). */

const roleSchema = z.enum(WORKSPACE_ROLES);

export const workspaceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema.describe("The caller's role in it."),
  createdAt: timestampSchema,
});

export const workspacePageSchema = pageSchema("workspaces", workspaceSummarySchema);

export const workspaceMemberSchema = z.object({ userId: z.string(), name: z.string(), email: z.string(), role: roleSchema, joinedAt: timestampSchema });

export const workspaceInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().nullable(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
});

export const createdInvitationSchema = workspaceInvitationSchema.extend({
  link: z.string().describe("The page the invitee opens to join; shown this once (no mail is sent)."),
});

export const workspaceMembersPageSchema = z.object({
  members: z.array(workspaceMemberSchema).describe("Oldest first."),
  invitations: z.array(workspaceInvitationSchema).describe("Open invitations, newest first."),
  nextCursor: z.string().nullable().describe("Goes on with both lists; null once both are shown whole."),
});

export const invitationPreviewSchema = z.object({
  workspaceName: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedBy: z.string().nullable(),
  expiresAt: timestampSchema,
  accountExists: z.boolean().describe("Whether an account with the invited email exists: sign in and accept, else send a name and password."),
});

/** POST /api/auth/invitations/:token. */
export const invitationAcceptedSchema = z.object({ workspaceId: z.string(), email: z.string() });

export const secretListEntrySchema = z.object({ name: z.string(), updatedAt: timestampSchema });

export const secretPageSchema = pageSchema("secrets", secretListEntrySchema);

export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The key's first characters, to tell keys apart."),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  expiresAt: timestampSchema.nullable(),
});

export const apiKeyPageSchema = pageSchema("apiKeys", apiKeySummarySchema);

export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  key: z.string().describe("The key itself, shown this once: only its SHA-256 hash is stored."),
  createdAt: timestampSchema,
  expiresAt: timestampSchema.nullable(),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof workspaceSummarySchema>, WorkspaceSummary>,
  SameWireType<z.output<typeof workspaceMemberSchema>, WorkspaceMember>,
  SameWireType<z.output<typeof workspaceInvitationSchema>, WorkspaceInvitation>,
  SameWireType<z.output<typeof createdInvitationSchema>, CreatedInvitation>,
  SameWireType<z.output<typeof workspaceMembersPageSchema>, WorkspaceMembersPage>,
  SameWireType<z.output<typeof invitationPreviewSchema>, InvitationPreview>,
  SameWireType<z.output<typeof secretListEntrySchema>, SecretListEntry>,
  SameWireType<z.output<typeof apiKeySummarySchema>, ApiKeySummary>,
  SameWireType<z.output<typeof createdApiKeySchema>, CreatedApiKey>,
  SameWireType<z.output<typeof workspacePageSchema>, ListPage<"workspaces", WorkspaceSummary>>,
  SameWireType<z.output<typeof secretPageSchema>, ListPage<"secrets", SecretListEntry>>,
  SameWireType<z.output<typeof apiKeyPageSchema>, ListPage<"apiKeys", ApiKeySummary>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
void matches;

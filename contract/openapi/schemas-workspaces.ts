/** The schemas of the workspace, member, invitation, secret and API key endpoints (docs/CONTRACT.md sections 7 and 8), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export {
  createdInvitationSchema,
  invitationAcceptedSchema,
  invitationPreviewSchema,
  workspaceInvitationSchema,
  workspaceMemberSchema,
  workspaceMembersPageSchema,
  workspacePageSchema,
  workspaceSummarySchema,
} from "../workspaces";
export { secretListEntrySchema, secretPageSchema } from "../secrets";
export { apiKeyPageSchema, apiKeySummarySchema, createdApiKeySchema } from "../api-keys";

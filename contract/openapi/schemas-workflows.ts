import { workflowDocumentSchema } from "../workflow-document";
import { workflowVersionSchema } from "../workflows";

/** The schemas of the workflow and run endpoints (docs/CONTRACT.md sections 5, 10 and 11), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { savedWorkflowSchema, storedWorkflowSchema, workflowPageSchema, workflowSummarySchema } from "../workflows";
export {
  apiRunSchema,
  apiSpanSchema,
  replayStartedSchema,
  rerunStartedSchema,
  runCancellingSchema,
  runDocumentSchema,
  runPageSchema,
  runStartedSchema,
  runSummarySchema,
  workspaceRunPageSchema,
  workspaceRunSummarySchema,
} from "../runs";
export { approvalDecidedSchema, pendingApprovalSchema, runApprovalsSchema } from "../approvals";

/** PUT /api/workflows/:id: the document and the version it was based on (lib/workflows/parse-document.ts reads both). */
export const workflowUpdateRequestSchema = workflowDocumentSchema.extend(workflowVersionSchema.shape);

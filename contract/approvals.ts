import { z } from "zod";
import { RUN_STATUSES } from "./runs";
import { timestampSchema } from "./timestamp";

/**
 * Tool approval (docs/CONTRACT.md section 6): a tool whose agent entry says `requireApproval: true`
 * waits for a person, who decides it through POST /api/runs/:id/approvals/:toolCallId (its body is
 * runs.ts's approvalDecisionSchema).
 */

/** A tool call waiting for a person, as GET /api/runs/:id/approvals lists it: its `tool.approval.requested` event without the type. */
export const pendingApprovalSchema = z.object({
  runId: z.string(),
  blockId: z.string(),
  /** The tool call's span (a child of the agent block's span). */
  spanId: z.string().nullable(),
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  requestedAt: timestampSchema,
});
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

/** GET /api/runs/:id/approvals. */
export const runApprovalsSchema = z.object({
  runId: z.string(),
  status: z.enum(RUN_STATUSES),
  approvals: z.array(pendingApprovalSchema),
});

/** POST /api/runs/:id/approvals/:toolCallId: the decision as recorded. */
export const approvalDecidedSchema = z.object({
  runId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  approved: z.boolean(),
  reason: z.string().optional().describe("Present when the decision gave one (trimmed)."),
});

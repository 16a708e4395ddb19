import { z } from "zod";
import { documentDiffSchema } from "./deployments";
import { workflowEstimateSchema } from "./estimates";
import { costSchema, tokenCountsSchema } from "./usage";
import { workflowDocumentSchema } from "./workflow-document";

/**
 * POST /api/workflows/:id/copilot (docs/CONTRACT.md section 16): the workspace's own model reads
 * the draft and the block catalog and proposes a changed document through checked edit tools.
 * Nothing is stored: the answer is a proposal the editor applies on Accept, and saves as any edit.
 */

export const COPILOT_MAX_MESSAGE_CHARS = 8_000;
/** Model calls of one copilot request at most (the AI SDK tool loop's step cap). */
export const COPILOT_MAX_STEPS = 24;

export const copilotRequestSchema = z.strictObject({
  message: z.string().trim().min(1, "is required").max(COPILOT_MAX_MESSAGE_CHARS),
  /** A model id of the picker (`openai/gpt-4o-mini`); its key is resolved as an Agent block's is. */
  model: z.string().min(1, "is required").max(200),
  /** The draft version the proposal is to be based on: a draft saved since answers 409, never a proposal over the other edit. */
  version: z.number().int().positive(),
  /** A run of this workflow to explain ("why did this fail?"): its errors and trace go to the model, inputs and outputs withheld. */
  runId: z.string().min(1).max(100).optional(),
});
export type CopilotRequest = z.input<typeof copilotRequestSchema>;

/** One accepted edit, in the order the model made them. */
export const copilotChangeSchema = z.object({
  tool: z.string(),
  summary: z.string().describe('What the edit did, in words (`Added agent block "Support Agent"`).'),
});
export type CopilotChange = z.infer<typeof copilotChangeSchema>;

/** An edit the checks refused: the reason went back to the model as the tool's error. */
export const copilotRefusalSchema = z.object({
  tool: z.string(),
  reason: z.string(),
});
export type CopilotRefusal = z.infer<typeof copilotRefusalSchema>;

export const copilotUsageSchema = z.object({
  tokens: tokenCountsSchema,
  cost: costSchema.nullable().describe("US dollars; null when the model has no known price."),
  calls: z.number().int().describe("Model calls made (steps of the tool loop)."),
});
export type CopilotUsage = z.infer<typeof copilotUsageSchema>;

export const copilotAnswerSchema = z.object({
  /** The model's last words: what it did, what it could not do, or the answer to a question. */
  answer: z.string(),
  model: z.string(),
  baseVersion: z.number().int().describe("The draft version the proposal was made on; Accept applies only over it."),
  proposal: z
    .object({
      document: workflowDocumentSchema,
      changes: z.array(copilotChangeSchema),
      diff: documentDiffSchema.describe("The change as the deploy drawer shows a diff."),
    })
    .nullable()
    .describe("Null when the model changed nothing (a question answered)."),
  refused: z.array(copilotRefusalSchema).describe("Edits refused by the save checks, each with its reason."),
  stepCapReached: z.boolean().describe("The tool loop stopped at its step cap: some of the request may be undone."),
  estimate: z
    .object({ before: workflowEstimateSchema, after: workflowEstimateSchema })
    .nullable()
    .describe("The run cost estimate of the draft and of the proposal (as POST /estimate answers, no input given)."),
  usage: copilotUsageSchema.describe(
    "What this copilot request itself spent; counted in usage under trigger `copilot`.",
  ),
});
export type CopilotAnswer = z.infer<typeof copilotAnswerSchema>;

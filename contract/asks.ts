import { z } from "zod";
import { RUN_STATUSES } from "./run-statuses";
import { timestampSchema } from "./timestamp";

/**
 * Human in the loop (docs/CONTRACT.md section 10): an `ask` block stops its path to put a question
 * to a person, with choices (each its own output handle), free text and typed fields, and goes on
 * with the answer, or along its `timeout` handle when nobody answers in time.
 */

const ASK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ID_RULE = "must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -";

export const askChoiceSchema = z.object({
  id: z.string().regex(ASK_ID, ID_RULE),
  label: z.string().max(200, "must be at most 200 characters"),
});
export type AskChoice = z.infer<typeof askChoiceSchema>;

export const ASK_FIELD_TYPES = ["string", "number", "boolean"] as const;
export type AskFieldType = (typeof ASK_FIELD_TYPES)[number];

export const askFieldSchema = z.object({
  name: z.string().regex(ASK_ID, ID_RULE),
  type: z.enum(ASK_FIELD_TYPES),
  label: z.string().max(200, "must be at most 200 characters"),
});
export type AskField = z.infer<typeof askFieldSchema>;

/** What a person is asked: the ask block's config with its references resolved. */
export type AskPrompt = Pick<PendingAsk, "question" | "choices" | "allowText" | "fields">;

/**
 * An ask waiting for its answer, as GET /api/runs/:id/asks lists it: its `ask.requested` event
 * without the type. `spanId` names it in the API and stays the same however many times the run
 * stops and goes on before it is answered.
 */
export const pendingAskSchema = z.object({
  runId: z.string(),
  blockId: z.string(),
  spanId: z
    .string()
    .describe("The ask's id in POST /api/runs/{id}/asks/{spanId}; the same however often the run stops and goes on."),
  iteration: z
    .array(z.number().int())
    .optional()
    .describe("Loop/parallel iteration indexes, outermost first, when the block is inside a container."),
  question: z.string(),
  choices: z.array(askChoiceSchema),
  allowText: z.boolean(),
  fields: z.array(askFieldSchema),
  requestedAt: timestampSchema,
  timeoutAt: timestampSchema.optional().describe("When it goes on along its `timeout` handle unless answered first."),
});
export type PendingAsk = z.infer<typeof pendingAskSchema>;

/** POST /api/runs/:id/asks/:spanId. */
export const askAnswerRequestSchema = z.strictObject({
  choice: z.string().max(64, "must be at most 64 characters").optional(),
  text: z.string().max(10_000, "must be at most 10000 characters").optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});
export type AskAnswerRequest = z.infer<typeof askAnswerRequestSchema>;

/** The ask block's output, and what `ask.answered` records. `answeredBy` is null when it timed out. */
export interface AskAnswer {
  choice: string | null;
  text: string | null;
  fields: Record<string, string | number | boolean>;
  answeredBy: string | null;
  answeredAt: string;
  timedOut: boolean;
}

/** GET /api/runs/:id/asks. */
export const runAsksSchema = z.object({
  runId: z.string(),
  status: z.enum(RUN_STATUSES),
  asks: z.array(pendingAskSchema),
});
export type AskList = z.infer<typeof runAsksSchema>;

/** POST /api/runs/:id/asks/:spanId: taken; the run goes on. */
export const askAnsweredSchema = z.object({
  runId: z.string(),
  spanId: z.string(),
  blockId: z.string(),
  answered: z.literal(true),
});

/** POST /api/chat/:chatId/conversations/:conversationId/asks/:spanId. */
export const chatAskAnsweredSchema = z.object({ spanId: z.string(), answered: z.literal(true) });

/** The handle an answer leaves the ask block by: `timeout`, `choice:<id>`, or `out` when the ask has no choices. */
export function askHandleOf(answer: Pick<AskAnswer, "choice" | "timedOut">, hasChoices: boolean): string {
  if (answer.timedOut) return "timeout";
  return hasChoices && answer.choice ? `choice:${answer.choice}` : "out";
}

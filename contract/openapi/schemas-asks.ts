import { z } from "zod";
import { askChoiceSchema, askFieldSchema, type AskList, type PendingAsk } from "../asks";
import { RUN_STATUSES } from "../runs";
import type { SameWireType } from "./same-type";
import { timestampSchema } from "./schemas-common";

/** Answers of the ask endpoints (docs/CONTRACT.md section 10). */

/** An ask waiting for its answer: its `ask.requested` event without the type. */
export const pendingAskSchema = z.object({
  runId: z.string(),
  blockId: z.string(),
  spanId: z.string().describe("The ask's id in POST /api/runs/{id}/asks/{spanId}; the same however often the run stops and goes on."),
  iteration: z.array(z.number().int()).optional().describe("Loop/parallel iteration indexes, outermost first, when the block is inside a container."),
  question: z.string(),
  choices: z.array(askChoiceSchema),
  allowText: z.boolean(),
  fields: z.array(askFieldSchema),
  requestedAt: timestampSchema,
  timeoutAt: timestampSchema.optional().describe("When it goes on along its `timeout` handle unless answered first."),
});

/** GET /api/runs/:id/asks. */
export const runAsksSchema = z.object({ runId: z.string(), status: z.enum(RUN_STATUSES), asks: z.array(pendingAskSchema) });

/** POST /api/runs/:id/asks/:spanId: taken; the run goes on. */
export const askAnsweredSchema = z.object({ runId: z.string(), spanId: z.string(), blockId: z.string(), answered: z.literal(true) });

/** POST /api/chat/:chatId/conversations/:conversationId/asks/:spanId. */
export const chatAskAnsweredSchema = z.object({ spanId: z.string(), answered: z.literal(true) });

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [SameWireType<z.output<typeof pendingAskSchema>, PendingAsk>, SameWireType<z.output<typeof runAsksSchema>, AskList>] = [true, true];
void matches;

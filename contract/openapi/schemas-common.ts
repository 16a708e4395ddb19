import { z } from "zod";
import type { ErrorBody, ErrorInfo, IssueDetail } from "../errors";
import type { Cost, TokenCounts, UsageFigures } from "../usage";
import type { SameWireType } from "./same-type";

/** Pieces every answer schema uses: timestamps, errors, usage figures and pages. */

/** A moment as the API writes it: ISO 8601 in UTC (`Date.prototype.toISOString`). */
export const timestampSchema = z.iso.datetime();

export const issueDetailSchema = z.object({
  path: z.string().describe("Where the problem is, e.g. `blocks[3].config.model`; empty for the value itself."),
  message: z.string(),
});

export const errorInfoSchema = z.object({ code: z.string(), message: z.string() });

/** The body of every error answer (docs/CONTRACT.md section 5). Loose: an error may carry fields of its own beside these. */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string().describe("One of the contract's error codes (contract/errors.ts), e.g. `invalid_request`, `not_found`, `version_conflict`."),
    message: z.string().describe("Written for people; never holds a secret."),
    details: z.array(issueDetailSchema).optional().describe("One entry per offending field."),
  }),
});

export const tokenCountsSchema = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
  cachedPrompt: z.number().optional(),
  cacheWrite: z.number().optional(),
  reasoning: z.number().optional(),
});

/** US dollars. */
export const costSchema = z.object({
  input: z.number(),
  output: z.number(),
  total: z.number(),
  reasoning: z.number().optional().describe("What the reasoning tokens cost: a part of `output`, not added to `total` again."),
});

export const usageFiguresShape = {
  cost: costSchema.nullable().describe("US dollars; null when some part of it has no known price (then `unpriced` is true)."),
  unpriced: z.boolean(),
  estimated: z.boolean().describe("Some tokens were counted locally because a provider reported none."),
};

/** `{ <key>: [...items], nextCursor }`: one page of a list (contract/pagination.ts). */
export function pageSchema<Key extends string, Item extends z.ZodType>(key: Key, item: Item) {
  return z.object({ [key]: z.array(item), nextCursor: z.string().nullable() } as { [K in Key]: z.ZodArray<Item> } & { nextCursor: z.ZodNullable<z.ZodString> });
}

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof issueDetailSchema>, IssueDetail>,
  SameWireType<z.output<typeof errorInfoSchema>, ErrorInfo>,
  SameWireType<z.output<typeof errorBodySchema>, ErrorBody>,
  SameWireType<z.output<typeof tokenCountsSchema>, TokenCounts>,
  SameWireType<z.output<typeof costSchema>, Cost>,
  SameWireType<z.output<z.ZodObject<typeof usageFiguresShape>>, UsageFigures>,
] = [true, true, true, true, true, true];
void matches;

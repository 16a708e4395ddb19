import { z } from "zod";
import { RUN_TRIGGER_KINDS, type RunTriggerKind } from "./deployments";
import { timestampSchema } from "./timestamp";

/** Tokens and dollars, the figures a user sees on every block, span, event and run. */

export const tokenCountsSchema = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
  /** Prompt tokens read from the provider's cache (a subset of `prompt`). */
  cachedPrompt: z.number().optional(),
  /** Prompt tokens written to the provider's cache (a subset of `prompt`). */
  cacheWrite: z.number().optional(),
  /** Reasoning tokens (a subset of `completion`). */
  reasoning: z.number().optional(),
});
export type TokenCounts = z.infer<typeof tokenCountsSchema>;

/** US dollars. */
export const costSchema = z.object({
  input: z.number(),
  output: z.number(),
  total: z.number(),
  /** Present when some reasoning tokens were reported. */
  reasoning: z
    .number()
    .optional()
    .describe("What the reasoning tokens cost: a part of `output`, not added to `total` again."),
});
export type Cost = z.infer<typeof costSchema>;

/**
 * What one model call, one block or one run spent. `cost` is null when any part of it has no
 * known price: then `unpriced` is true and the UI says so instead of showing a made-up 0.
 * `estimated` is true when some tokens were counted locally because a provider reported none.
 */
export interface Usage {
  tokens: TokenCounts;
  cost: Cost | null;
  unpriced?: boolean;
  estimated?: boolean;
}

/** Tokens and cost as the API spreads them on runs and spans; cost null (and unpriced) when no price is known. */
export const usageFiguresShape = {
  cost: costSchema
    .nullable()
    .describe("US dollars; null when some part of it has no known price (then `unpriced` is true)."),
  unpriced: z.boolean(),
  estimated: z.boolean().describe("Some tokens were counted locally because a provider reported none."),
};
export type UsageFigures = z.infer<z.ZodObject<typeof usageFiguresShape>>;

/*
 * Usage over a period (GET /api/usage, docs/CONTRACT.md section 9): runs, tokens and dollars by
 * API key, workflow, model, trigger or day, so a team sees what each caller of a workflow costs.
 */

/** What GET /api/usage groups by. */
export const USAGE_GROUP_BYS = ["apiKey", "workflow", "model", "trigger", "day"] as const;
export type UsageGroupBy = (typeof USAGE_GROUP_BYS)[number];

/** The period when the request names none: the last 30 days up to now. */
export const USAGE_DEFAULT_DAYS = 30;
/** The longest period one request may ask for, so one answer stays bounded. */
export const USAGE_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const periodBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: "must be a date (2025-01-31, a whole UTC day) or an ISO date and time with its offset (2025-01-31T09:00:00Z)",
});

/** `from`'s moment: a date is the start of that UTC day. */
function startOf(bound: string): Date {
  return new Date(DATE_ONLY.test(bound) ? `${bound}T00:00:00.000Z` : bound);
}

/** `to`'s moment, excluded: a date counts whole, so the period ends at the start of the next UTC day. */
function endOf(bound: string): Date {
  return DATE_ONLY.test(bound) ? new Date(startOf(bound).getTime() + DAY_MS) : new Date(bound);
}

/**
 * The query of GET /api/usage as strings, before the period is resolved: what a client sends.
 * `from` and `to` are dates or ISO date-times; a date `to` includes that whole UTC day.
 */
export const usageQueryFields = z.strictObject({
  from: periodBound.optional(),
  to: periodBound.optional(),
  groupBy: z.enum(USAGE_GROUP_BYS, { error: `must be one of ${USAGE_GROUP_BYS.join(", ")}` }).default("apiKey"),
  workflowId: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
  apiKeyId: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
  trigger: z.enum(RUN_TRIGGER_KINDS, { error: `must be one of ${RUN_TRIGGER_KINDS.join(", ")}` }).optional(),
  /** Evaluation runs are left out of the figures unless this is `true` (or `trigger=evaluation` asks for them alone). */
  includeEvaluations: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
});
export type UsageQueryInput = z.input<typeof usageQueryFields>;

/** The resolved query: the period as [from, to), `to` excluded. */
export interface UsageQuery {
  from: Date;
  to: Date;
  groupBy: UsageGroupBy;
  workflowId?: string;
  apiKeyId?: string;
  trigger?: RunTriggerKind;
  /** Count evaluation runs too (they are left out unless asked for). */
  includeEvaluations?: boolean;
}

/**
 * The query of GET /api/usage, resolved against `now`: left out, `to` is now and `from` is
 * USAGE_DEFAULT_DAYS before `to`. Refused (naming the parameter): a bound that is not a date,
 * `to` not after `from`, or a period longer than USAGE_MAX_DAYS.
 */
export function usageQuerySchema(now: () => Date = () => new Date()) {
  return usageQueryFields.transform((fields, context): UsageQuery => {
    const to = fields.to === undefined ? now() : endOf(fields.to);
    const from =
      fields.from === undefined ? new Date(to.getTime() - USAGE_DEFAULT_DAYS * DAY_MS) : startOf(fields.from);
    if (to.getTime() <= from.getTime()) {
      context.issues.push({
        code: "custom",
        path: ["to"],
        message: `must be after from (${from.toISOString()})`,
        input: fields.to,
      });
      return z.NEVER;
    }
    if (to.getTime() - from.getTime() > USAGE_MAX_DAYS * DAY_MS) {
      context.issues.push({
        code: "custom",
        path: ["from"],
        message: `the period may be at most ${USAGE_MAX_DAYS} days long`,
        input: fields.from,
      });
      return z.NEVER;
    }
    const { groupBy, workflowId, apiKeyId, trigger, includeEvaluations } = fields;
    return {
      from,
      to,
      groupBy,
      ...(workflowId ? { workflowId } : {}),
      ...(apiKeyId ? { apiKeyId } : {}),
      ...(trigger ? { trigger } : {}),
      ...(includeEvaluations === "true" ? { includeEvaluations: true } : {}),
    };
  });
}

/** Tokens, runs and dollars of one group, or of the whole period. */
export const usageFiguresWithRunsSchema = z.object({
  ...usageFiguresShape,
  runs: z
    .number()
    .int()
    .describe("Runs counted; by model, the runs that called it (a run calling two models counts in both)."),
  testRuns: z
    .number()
    .int()
    .describe("How many of those runs were test runs: side effects simulated, model calls real and counted here."),
  tokens: tokenCountsSchema,
  pricedCost: costSchema.describe(
    "The dollars of the parts that have a price: equal to `cost` when nothing is unpriced.",
  ),
});
export type UsageFiguresWithRuns = z.infer<typeof usageFiguresWithRunsSchema>;

/** One group of GET /api/usage. */
export const usageRowSchema = usageFiguresWithRunsSchema.extend({
  key: z
    .string()
    .nullable()
    .describe(
      "An API key's id, a workflow's id, a model id, a trigger kind or a day (YYYY-MM-DD, UTC). Null for runs started without an API key (one row per trigger) and, by model, for knowledge searches' embeddings.",
    ),
  label: z
    .string()
    .describe(
      "For people: the key's name and prefix (never the key), the workflow's name, the model id, the trigger, the day.",
    ),
  trigger: z
    .enum(RUN_TRIGGER_KINDS)
    .optional()
    .describe("By API key, on the rows of runs without a key: how those runs started."),
});
export type UsageRow = z.infer<typeof usageRowSchema>;

/** The answer of GET /api/usage. */
export const usageReportSchema = z.object({
  from: timestampSchema,
  to: timestampSchema.describe("The end of the period, excluded."),
  groupBy: z.enum(USAGE_GROUP_BYS),
  rows: z.array(usageRowSchema).describe("Most expensive first; by day, oldest first."),
  totals: usageFiguresWithRunsSchema.describe("The whole period's runs, with the same filters."),
});
export type UsageReport = z.infer<typeof usageReportSchema>;

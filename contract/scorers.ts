import { z } from "zod";

/**
 * Scorers (docs/CONTRACT.md section 13): each judges one case's output and answers a score from 0
 * to 1 with a reason. A suite holds several, each with a weight; a case's score is their weighted
 * mean. Settings that can be wrong in themselves (a regular expression, a JSON Schema) are checked
 * when the suite is saved (lib/evaluations/scorer-checks.ts), not when it runs.
 */

/** A dotted path into the run's output (`answer`, `items.0.name`) that the scorer reads instead of the whole output. */
const fieldSchema = z
  .string()
  .max(200)
  .optional()
  .describe("A dotted path into the output (`answer`, `items.0.name`); the whole output when left out.");

const weightSchema = z
  .number()
  .finite()
  .min(0, "must be zero or more")
  .max(1000, "must be at most 1000")
  .optional()
  .default(1)
  .describe("Its share of the case's weighted mean score.");

/** What every scorer may carry: its weight, and a name to show (its type when left out). */
const common = {
  weight: weightSchema,
  name: z.string().trim().min(1).max(100).optional().describe("The name results show; the type when left out."),
};

export const exactScorerSchema = z.strictObject({
  type: z.literal("exact"),
  ...common,
  field: fieldSchema,
  caseSensitive: z.boolean().optional().default(true),
});

export const containsScorerSchema = z.strictObject({
  type: z.literal("contains"),
  ...common,
  field: fieldSchema,
  /** The text the output must contain; the case's expected output when left out. */
  value: z.string().max(10_000).optional(),
  caseSensitive: z.boolean().optional().default(false),
});

export const regexScorerSchema = z.strictObject({
  type: z.literal("regex"),
  ...common,
  field: fieldSchema,
  pattern: z.string().min(1, "must not be empty").max(2000),
  flags: z.string().max(10).optional().default(""),
});

export const jsonSchemaScorerSchema = z.strictObject({
  type: z.literal("jsonSchema"),
  ...common,
  field: fieldSchema,
  schema: z
    .record(z.string(), z.unknown())
    .describe("A JSON Schema (draft 2020-12 or 07) the output must be valid against."),
});

export const numericScorerSchema = z.strictObject({
  type: z.literal("numeric"),
  ...common,
  field: fieldSchema,
  /** Within this absolute distance of the expected number the score is 1; beyond it, it falls with the relative error. */
  tolerance: z.number().finite().min(0).optional().default(0),
});

export const similarityScorerSchema = z.strictObject({
  type: z.literal("similarity"),
  ...common,
  field: fieldSchema,
  /** An embedding model (`offline/hash` needs no key and runs here); the workspace's default embedder when left out. */
  model: z.string().min(1).max(200).optional(),
});

export const judgeScorerSchema = z.strictObject({
  type: z.literal("judge"),
  ...common,
  model: z.string().min(1, "must name a model").max(200),
  rubric: z.string().trim().min(1, "must say what a good answer is").max(10_000),
});

export const workflowScorerSchema = z.strictObject({
  type: z.literal("workflow"),
  ...common,
  /** A workflow of the workspace taking `{ input, output, expected }` and answering a number from 0 to 1, or `{ score, reason }`. */
  workflowId: z.string().min(1, "must name a workflow"),
});

export const maxCostScorerSchema = z.strictObject({
  type: z.literal("maxCost"),
  ...common,
  maxCost: z.number().finite().min(0, "must be zero or more (US dollars)"),
});

export const maxDurationScorerSchema = z.strictObject({
  type: z.literal("maxDurationMs"),
  ...common,
  maxDurationMs: z.number().int().min(1, "must be at least 1 millisecond"),
});

export const scorerSchema = z.discriminatedUnion("type", [
  exactScorerSchema,
  containsScorerSchema,
  regexScorerSchema,
  jsonSchemaScorerSchema,
  numericScorerSchema,
  similarityScorerSchema,
  judgeScorerSchema,
  workflowScorerSchema,
  maxCostScorerSchema,
  maxDurationScorerSchema,
]);
export type ScorerInput = z.input<typeof scorerSchema>;
export type Scorer = z.output<typeof scorerSchema>;
export type ScorerType = Scorer["type"];

/** What one scorer answered for one case. */
export const scoreSchema = z.object({
  scorer: z.string().describe("The scorer's name (its type when it has none)."),
  score: z.number().min(0).max(1),
  reason: z.string(),
  weight: z.number(),
});
export type Score = z.infer<typeof scoreSchema>;

/** The name a scorer's results are shown under. */
export function scorerName(
  scorer: Pick<Scorer, "type" | "name">,
  index: number,
  all: readonly Pick<Scorer, "type" | "name">[],
): string {
  const base = scorer.name ?? scorer.type;
  const same = all.filter((other) => (other.name ?? other.type) === base).length;
  return same > 1
    ? `${base} ${all.slice(0, index + 1).filter((other) => (other.name ?? other.type) === base).length}`
    : base;
}

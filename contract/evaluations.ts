import { z } from "zod";
import { requestBudgetSchema } from "./budgets";
import { outputDiffSchema } from "./run-diff";
import { scoreSchema, scorerSchema } from "./scorers";
import { timestampSchema } from "./timestamp";

/** Suites, evaluations and their comparison (docs/CONTRACT.md section 13). */

/** A suite holds at most this many scorers. */
export const SUITE_MAX_SCORERS = 20;
/** Cases of one evaluation running at once, when the request names no `concurrency`, and the most it may name. */
export const EVALUATION_CONCURRENCY_DEFAULT = 4;
export const EVALUATION_CONCURRENCY_MAX = 16;

const fraction = z.number().finite().min(0, "must be from 0 to 1").max(1, "must be from 0 to 1");

/** What a deploy requires of the suite's evaluation of the draft. */
export const suiteGateSchema = z.strictObject({
  minPassRate: fraction.optional().describe("The share of cases that must pass, from 0 to 1."),
  maxRegressions: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("At most this many cases may score lower than on the active deployment."),
  maxCostPerCase: z.number().finite().min(0).optional().describe("The mean cost of a case's run, in US dollars."),
});
export type SuiteGate = z.infer<typeof suiteGateSchema>;

/** POST /api/workflows/:id/suites, and PUT /api/suites/:id (the whole suite again). */
export const suiteRequestSchema = z.strictObject({
  name: z.string().trim().min(1, "is required").max(200),
  datasetId: z.string().min(1, "must name a dataset"),
  scorers: z
    .array(scorerSchema)
    .min(1, "must hold at least one scorer")
    .max(SUITE_MAX_SCORERS, `must hold at most ${SUITE_MAX_SCORERS} scorers`),
  passThreshold: fraction.optional().default(1).describe("The weighted mean score a case needs to pass (default 1)."),
  gate: suiteGateSchema.nullable().optional().default(null),
});
export type SuiteRequest = z.input<typeof suiteRequestSchema>;

export const suiteSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  name: z.string(),
  datasetId: z.string(),
  scorers: z.array(scorerSchema),
  passThreshold: z.number(),
  gate: suiteGateSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type SuiteView = z.infer<typeof suiteSchema>;
export const suiteListSchema = z.object({ suites: z.array(suiteSchema) });

/** POST /api/workflows/:id/evaluations. */
export const startEvaluationRequestSchema = z.strictObject({
  suiteId: z.string().min(1, "must name a suite"),
  /** `draft` (default) or a deployment's id. */
  version: z.string().min(1).optional().default("draft"),
  /** Side effects simulated, as in test runs (default); `false` sends them. */
  test: z.boolean().optional().default(true),
  concurrency: z
    .number()
    .int()
    .min(1, "must be at least 1")
    .max(EVALUATION_CONCURRENCY_MAX, `must be at most ${EVALUATION_CONCURRENCY_MAX}`)
    .optional()
    .default(EVALUATION_CONCURRENCY_DEFAULT),
  /** A cap for the whole evaluation: it stops before the model call that could cross it. */
  budget: requestBudgetSchema.optional(),
  /** Answer once it has ended, with its summary and verdict (for CI). */
  wait: z.boolean().optional().default(false),
});
export type StartEvaluationRequest = z.input<typeof startEvaluationRequestSchema>;

export const EVALUATION_STATUSES = ["running", "completed", "stopped", "failed"] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export const EVALUATION_CASE_STATUSES = ["pending", "running", "scored", "failed", "not_run"] as const;
export type EvaluationCaseStatus = (typeof EVALUATION_CASE_STATUSES)[number];

/** What an evaluation found, once it has ended. */
export const evaluationSummarySchema = z.object({
  passRate: z.number().describe("Cases passed over all cases (a case not run does not pass)."),
  casesPassed: z.number().int(),
  casesFailed: z.number().int().describe("Cases whose run failed."),
  casesNotRun: z.number().int().describe("Cases the evaluation stopped before (its budget)."),
  meanScore: z.number().describe("The mean weighted score of the cases that ran."),
  scores: z.record(z.string(), z.number()).describe("The mean score of each scorer, by its name."),
  cost: z.number().describe("US dollars: the sum of its runs' costs."),
  costPerCase: z.number().describe("`cost` over the cases that ran."),
  scoringCost: z.number().describe("What scorers spent (judges, scoring workflows), apart from the runs."),
  durationMs: z.object({ p50: z.number(), p95: z.number() }),
  passed: z.boolean().describe("The verdict: every threshold of the suite holds (`failures` is empty)."),
  failures: z.array(z.string()).describe("Each threshold missed, naming it and the figure."),
});
export type EvaluationSummary = z.infer<typeof evaluationSummarySchema>;

export const evaluationCaseSchema = z.object({
  caseId: z.string(),
  position: z.number().int(),
  status: z.enum(EVALUATION_CASE_STATUSES),
  runId: z.string().nullable().describe("Its run: GET /api/runs/:id has the trace."),
  input: z.record(z.string(), z.unknown()),
  expected: z.unknown(),
  output: z.unknown(),
  scores: z.array(scoreSchema),
  score: z.number().nullable().describe("The weighted mean of its scores."),
  passed: z.boolean().nullable(),
  cost: z.number().nullable(),
  scoringCost: z.number().nullable(),
  tokens: z.number().int().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type EvaluationCaseView = z.infer<typeof evaluationCaseSchema>;

const evaluationShape = {
  id: z.string(),
  workflowId: z.string(),
  suiteId: z.string(),
  datasetVersion: z.number().int(),
  version: z.string().describe("`draft` or the deployment's id."),
  workflowVersion: z.number().int(),
  test: z.boolean(),
  status: z.enum(EVALUATION_STATUSES),
  stopReason: z.string().nullable(),
  progress: z.object({
    done: z.number().int(),
    total: z.number().int(),
    cost: z.number().describe("What its finished runs spent so far, US dollars."),
  }),
  budget: z.object({ maxCost: z.number() }).nullable(),
  summary: evaluationSummarySchema.nullable().describe("Null while it runs."),
  createdAt: timestampSchema,
  endedAt: timestampSchema.nullable(),
};

/** GET /api/workflows/:id/evaluations: newest first, without their cases. */
export const evaluationInfoSchema = z.object(evaluationShape);
export type EvaluationInfo = z.infer<typeof evaluationInfoSchema>;
export const evaluationListSchema = z.object({ evaluations: z.array(evaluationInfoSchema) });

/** GET /api/evaluations/:id. */
export const evaluationSchema = z.object({ ...evaluationShape, cases: z.array(evaluationCaseSchema) });
export type EvaluationView = z.infer<typeof evaluationSchema>;

export const evaluationStartedSchema = z.object({ evaluationId: z.string() });

/** One side of a compared case. */
const comparedSideSchema = z.object({
  runId: z.string().nullable(),
  status: z.enum(EVALUATION_CASE_STATUSES),
  score: z.number().nullable(),
  passed: z.boolean().nullable(),
  output: z.unknown(),
  cost: z.number().nullable(),
  durationMs: z.number().nullable(),
});

export const COMPARED_CHANGES = ["regressed", "improved", "unchanged", "added", "removed"] as const;

export const comparedCaseSchema = z.object({
  caseId: z.string(),
  input: z.record(z.string(), z.unknown()),
  change: z.enum(COMPARED_CHANGES),
  before: comparedSideSchema.nullable(),
  after: comparedSideSchema.nullable(),
  delta: z.number().nullable().describe("`after.score - before.score`."),
  costDelta: z.number().nullable(),
  durationDelta: z.number().nullable(),
  outputDiff: outputDiffSchema.nullable().describe("How the final outputs differ (as the run diff shows a block's)."),
});
export type ComparedCase = z.infer<typeof comparedCaseSchema>;

/** GET /api/evaluations/:id/compare/:otherId: `id` is before, `otherId` after. */
export const evaluationComparisonSchema = z.object({
  evaluationId: z.string(),
  otherEvaluationId: z.string(),
  improved: z.number().int(),
  regressed: z.number().int(),
  unchanged: z.number().int(),
  meanDelta: z.number().describe("The mean score change over cases in both."),
  signTest: z
    .object({ n: z.number().int(), pValue: z.number() })
    .describe("Two-sided sign test over the cases that changed: a p-value above 0.05 means the change may be chance."),
  bootstrap: z
    .object({ low: z.number(), high: z.number(), confidence: z.number() })
    .describe("A 95% bootstrap interval of the mean score change (seeded, so it is the same every time)."),
  cost: z.object({ from: z.number(), to: z.number(), delta: z.number() }),
  cases: z
    .array(comparedCaseSchema)
    .describe("Regressions first (largest drop first), then improvements, then the rest."),
});
export type EvaluationComparison = z.infer<typeof evaluationComparisonSchema>;

import { z } from "zod";

/**
 * Test runs (docs/CONTRACT.md section 5, `test: true`): what a block answers with when a test run
 * does not send its call. Kept on the block (`block.testing`) so it is saved, deployed and
 * exported with the workflow; a real run ignores it.
 */

/** An HTTP answer: the API block's response, and every `services.fetch` of a Function block. */
export const httpSampleSchema = z.strictObject({
  status: z
    .number()
    .int()
    .min(100, "must be an HTTP status from 100 to 599")
    .max(599, "must be an HTTP status from 100 to 599")
    .default(200),
  headers: z.record(z.string(), z.string()).optional(),
  /** JSON (sent back as `application/json`) or text. */
  body: z.unknown().optional(),
});

/** The Web block's page. */
export const pageSampleSchema = z.strictObject({
  title: z.string().max(1_000).optional(),
  text: z.string(),
  status: z.number().int().min(100).max(599).optional(),
});

/** An earlier run's output of this block, returned without calling the model (agent, router, evaluator). */
export const recordedAnswerSchema = z.strictObject({
  runId: z.string().min(1, "is required"),
  spanId: z.string().min(1, "is required"),
  output: z.record(z.string(), z.unknown()),
});

export const blockTestingSchema = z.strictObject({
  http: httpSampleSchema.optional(),
  page: pageSampleSchema.optional(),
  /** Side-effecting tools (http_request, MCP tools, file_write) by the name the model sees: the result the model gets. */
  tools: z.record(z.string().min(1), z.unknown()).optional(),
  /** In a test run, the block returns this output and calls no model. */
  recorded: recordedAnswerSchema.optional(),
});

export type HttpSample = z.infer<typeof httpSampleSchema>;
export type PageSample = z.infer<typeof pageSampleSchema>;
export type RecordedAnswer = z.infer<typeof recordedAnswerSchema>;
export type BlockTesting = z.infer<typeof blockTestingSchema>;

/**
 * How a call of a test run was answered, on its span (`simulated`): from the block's sample, with
 * the "no sample" answer, or from a recorded output (no model call).
 */
export const SIMULATION_SOURCES = ["sample", "no-sample", "recorded"] as const;
export type SimulationSource = (typeof SIMULATION_SOURCES)[number];

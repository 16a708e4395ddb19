import { z } from "zod";
import { tokenCountsSchema } from "./usage";

/** GET /api/runs/:id/diff/:otherId (docs/CONTRACT.md section 12): two runs of a workflow compared block by block. */

/** A figure in both runs (null where the block did not run or had none) and how much the other run's differs. */
const figureChangeSchema = z.object({
  from: z.number().nullable(),
  to: z.number().nullable(),
  delta: z.number().describe("`to - from`, a missing side counting as 0."),
});
export type FigureChange = z.infer<typeof figureChangeSchema>;

/** A piece of a text diff: kept in both, only in the first run (`removed`) or only in the other (`added`). */
const textDiffPartSchema = z.object({ kind: z.enum(["same", "added", "removed"]), text: z.string() });
export type TextDiffPart = z.infer<typeof textDiffPartSchema>;

/** A value at a JSON path that differs between the runs (`undefined` sides are sent as absent); `path` is `content`, `results[2].score`, or `` for the whole value. */
const jsonPathChangeSchema = z.object({ path: z.string(), from: z.unknown().optional(), to: z.unknown().optional() });
export type JsonPathChange = z.infer<typeof jsonPathChangeSchema>;

/** How a block's output differs: a text diff for text, changed paths for JSON; timings and usage are compared on their own. */
export const outputDiffSchema = z
  .union([
    z.object({ changed: z.literal(false) }),
    z.object({
      changed: z.literal(true),
      kind: z.literal("text"),
      path: z.string().describe("The output field whose text changed (`content`)."),
      parts: z
        .array(textDiffPartSchema)
        .describe("A word diff: `same` and `removed` parts give the first run's text, `same` and `added` the other's."),
    }),
    z.object({
      changed: z.literal(true),
      kind: z.literal("json"),
      changes: z.array(jsonPathChangeSchema),
      truncated: z.boolean().describe("More than 50 paths changed; the first 50 are listed."),
    }),
  ])
  .describe(
    "Timings and usage fields in outputs (providerTiming, tokens, cost) are not compared here: they have their own figures.",
  );
export type OutputDiff = z.infer<typeof outputDiffSchema>;

/** One block (one iteration of it, inside a loop or parallel) in the two runs. */
export const blockRunDiffSchema = z.object({
  blockId: z.string(),
  blockName: z.string(),
  blockType: z.string(),
  /** Loop and parallel iterations, outermost first; null at the top level. */
  iteration: z.array(z.number().int()).nullable(),
  /** `added`: ran only in the other run; `removed`: only in the first; `changed`: something below differs; `same`: nothing does. */
  change: z.enum(["added", "removed", "changed", "same"]),
  status: z.object({ from: z.string().nullable(), to: z.string().nullable(), changed: z.boolean() }),
  output: outputDiffSchema,
  /** Total tokens. */
  tokens: figureChangeSchema,
  /** Total cost in US dollars (an unpriced side counts as null). */
  cost: figureChangeSchema,
  durationMs: figureChangeSchema,
});
export type BlockRunDiff = z.infer<typeof blockRunDiffSchema>;

/** The answer of GET /api/runs/:id/diff/:otherId: blocks with the largest change first. */
export const runDiffSchema = z.object({
  runId: z.string(),
  otherRunId: z.string(),
  workflowId: z.string(),
  blocks: z
    .array(blockRunDiffSchema)
    .describe(
      "Status changes first, then blocks in one run only, then changed outputs, then by the largest cost, token and duration difference.",
    ),
  changedBlocks: z.number().int().describe("Blocks that differ in status, presence or output."),
  totals: z.object({
    status: z.object({ from: z.string(), to: z.string() }),
    tokens: z.object({ from: tokenCountsSchema, to: tokenCountsSchema }),
    cost: figureChangeSchema,
    durationMs: figureChangeSchema,
  }),
});
export type RunDiff = z.infer<typeof runDiffSchema>;

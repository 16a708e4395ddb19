import { z } from "zod";
import type { BlockRunDiff, RunDiff } from "../run-diff";
import type { SameWireType } from "./same-type";
import { tokenCountsSchema } from "./schemas-common";

/** GET /api/runs/:id/diff/:otherId (docs/CONTRACT.md section 12). */

const figureChangeSchema = z.object({
  from: z.number().nullable(),
  to: z.number().nullable(),
  delta: z.number().describe("`to - from`, a missing side counting as 0."),
});

const textDiffPartSchema = z.object({ kind: z.enum(["same", "added", "removed"]), text: z.string() });

const outputDiffSchema = z
  .union([
    z.object({ changed: z.literal(false) }),
    z.object({
      changed: z.literal(true),
      kind: z.literal("text"),
      path: z.string().describe("The output field whose text changed (`content`)."),
      parts: z.array(textDiffPartSchema).describe("A word diff: `same` and `removed` parts give the first run's text, `same` and `added` the other's."),
    }),
    z.object({
      changed: z.literal(true),
      kind: z.literal("json"),
      changes: z.array(z.object({ path: z.string(), from: z.unknown().optional(), to: z.unknown().optional() })),
      truncated: z.boolean().describe("More than 50 paths changed; the first 50 are listed."),
    }),
  ])
  .describe("Timings and usage fields in outputs (providerTiming, tokens, cost) are not compared here: they have their own figures.");

export const blockRunDiffSchema = z.object({
  blockId: z.string(),
  blockName: z.string(),
  blockType: z.string(),
  iteration: z.array(z.number().int()).nullable(),
  change: z.enum(["added", "removed", "changed", "same"]),
  status: z.object({ from: z.string().nullable(), to: z.string().nullable(), changed: z.boolean() }),
  output: outputDiffSchema,
  tokens: figureChangeSchema,
  cost: figureChangeSchema,
  durationMs: figureChangeSchema,
});

export const runDiffSchema = z.object({
  runId: z.string(),
  otherRunId: z.string(),
  workflowId: z.string(),
  blocks: z
    .array(blockRunDiffSchema)
    .describe("Status changes first, then blocks in one run only, then changed outputs, then by the largest cost, token and duration difference."),
  changedBlocks: z.number().int().describe("Blocks that differ in status, presence or output."),
  totals: z.object({
    status: z.object({ from: z.string(), to: z.string() }),
    tokens: z.object({ from: tokenCountsSchema, to: tokenCountsSchema }),
    cost: figureChangeSchema,
    durationMs: figureChangeSchema,
  }),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [SameWireType<z.output<typeof blockRunDiffSchema>, BlockRunDiff>, SameWireType<z.output<typeof runDiffSchema>, RunDiff>] = [true, true];
void matches;

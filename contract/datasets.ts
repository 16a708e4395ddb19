import { z } from "zod";
import { withoutReservedKeys } from "./reserved-names";
import { timestampSchema } from "./timestamp";

/** Datasets: cases to evaluate a workflow on (docs/CONTRACT.md section 13). */

/** A dataset holds at most this many cases; more is 413 naming the limit. */
export const DATASET_MAX_CASES = 10_000;
/** At most this many tags on a case, each at most DATASET_TAG_MAX_LENGTH characters. */
export const DATASET_MAX_TAGS = 20;
export const DATASET_TAG_MAX_LENGTH = 50;
/** What an import (CSV or JSON lines) may weigh. */
export const DATASET_IMPORT_MAX_BYTES = 16 * 1024 * 1024;

const tagsSchema = z
  .array(z.string().trim().min(1, "must not be empty").max(DATASET_TAG_MAX_LENGTH))
  .max(DATASET_MAX_TAGS, `must be at most ${DATASET_MAX_TAGS} tags`);

/** A case as it is sent: the workflow's start inputs, and optionally what it should answer. */
export const datasetCaseInputSchema = z.strictObject({
  input: withoutReservedKeys(z.record(z.string(), z.unknown())),
  /** The expected output (text, a number or any JSON); left out when the case has none. */
  expected: z.unknown().optional(),
  note: z.string().max(2000, "must be at most 2000 characters").optional().default(""),
  tags: tagsSchema.optional().default([]),
});
export type DatasetCaseInput = z.input<typeof datasetCaseInputSchema>;
export type CheckedDatasetCase = z.output<typeof datasetCaseInputSchema>;

/** A case as it is stored: `id` stays the same across its edits. */
export const datasetCaseSchema = z.object({
  id: z.string().describe("The case's id, the same across its edits (evaluations match cases by it)."),
  input: z.record(z.string(), z.unknown()),
  expected: z.unknown().describe("The expected output; null when the case has none."),
  note: z.string(),
  tags: z.array(z.string()),
  sourceRunId: z.string().nullable().describe("The run it was added from, if any."),
});
export type DatasetCase = z.infer<typeof datasetCaseSchema>;

const datasetNameSchema = z.string().trim().min(1, "is required").max(200, "must be at most 200 characters");

/** POST /api/datasets. */
export const createDatasetRequestSchema = z.strictObject({
  name: datasetNameSchema,
  /** The workflow whose start inputs the cases' columns must match. */
  workflowId: z.string().min(1).optional(),
  cases: z.array(datasetCaseInputSchema).optional().default([]),
});
export type CreateDatasetRequest = z.input<typeof createDatasetRequestSchema>;

/** PATCH /api/datasets/:id: rename. */
export const updateDatasetRequestSchema = z.strictObject({ name: datasetNameSchema });
export type UpdateDatasetRequest = z.input<typeof updateDatasetRequestSchema>;

/** POST /api/datasets/:id/cases as JSON (CSV and JSON lines are the other forms). */
export const addDatasetCasesRequestSchema = z.strictObject({
  cases: z.array(datasetCaseInputSchema).min(1, "must hold at least one case"),
});
export type AddDatasetCasesRequest = z.input<typeof addDatasetCasesRequestSchema>;

/** POST /api/runs/:id/dataset: a past run as a case; `expected` replaces the run's output when sent. */
export const addRunToDatasetRequestSchema = z.strictObject({
  datasetId: z.string().min(1, "must name a dataset"),
  expected: z.unknown().optional(),
  note: z.string().max(2000).optional().default(""),
  tags: tagsSchema.optional().default([]),
});
export type AddRunToDatasetRequest = z.input<typeof addRunToDatasetRequestSchema>;

/** A dataset in the list of GET /api/datasets. */
export const datasetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  workflowId: z.string().nullable(),
  version: z.number().int().describe("Bumped by every change of its cases."),
  caseCount: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type DatasetSummary = z.infer<typeof datasetSummarySchema>;

/** GET /api/datasets/:id: the dataset with its cases (as they are now, or at `?version=`). */
export const datasetSchema = datasetSummarySchema.extend({ cases: z.array(datasetCaseSchema) });
export type DatasetView = z.infer<typeof datasetSchema>;

export const datasetListSchema = z.object({ datasets: z.array(datasetSummarySchema) });
export type DatasetList = z.infer<typeof datasetListSchema>;

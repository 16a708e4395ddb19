import { z } from "zod";
import { IMPORT_FORMATS, type ImportedWorkflow, type ImportReport } from "../workflow-import";
import type { SameWireType } from "./same-type";
import { savedWorkflowSchema } from "./schemas-workflows";

/** The answer of POST /api/workflows/import (docs/CONTRACT.md section 5, an extension). */

export const importReportSchema = z.object({
  format: z.enum(IMPORT_FORMATS).describe("The format the file was read as."),
  mapped: z.array(z.string()).describe("What became what, one line each (`steps[1] (apiCall) → API block 'API searchResults'`)."),
  notMapped: z
    .array(z.object({ what: z.string().describe("Where in the file, and what it is."), why: z.string() }))
    .describe("Every part of the file with no Trellis equivalent, and why: nothing is left out silently."),
  renamed: z
    .object({ from: z.string(), to: z.string() })
    .optional()
    .describe("Present when the workspace already had a workflow of the file's name: the name it was stored under instead (`Support (copy)`)."),
});

export const importedWorkflowSchema = z.object({
  workflow: savedWorkflowSchema,
  report: importReportSchema,
});

const matches: [SameWireType<z.output<typeof importReportSchema>, ImportReport>, SameWireType<z.output<typeof importedWorkflowSchema>, ImportedWorkflow>] = [
  true,
  true,
];
void matches;

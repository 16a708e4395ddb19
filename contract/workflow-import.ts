import { z } from "zod";
import { savedWorkflowSchema } from "./workflows";

/**
 * POST /api/workflows/import (an extension): a flow file of another tool, or Trellis's own
 * exported document, becomes a workflow. The answer says what mapped and, plainly, what did not.
 */

export const IMPORT_FORMATS = ["trellis", "anythingllm-flow", "mcp-bridge-workflow", "sim-export"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** How each format is named to people (the 400 for an unknown shape lists these). */
export const IMPORT_FORMAT_LABELS: Record<ImportFormat, string> = {
  trellis: "Trellis workflow document (an exported .trellis.json)",
  "anythingllm-flow": "AnythingLLM agent flow (name, steps: start, apiCall, llmInstruction, webScraping)",
  "mcp-bridge-workflow": "MCP-bridge workflow definition (flow_id, agents with depends_on, when, reroute)",
  "sim-export": "Sim workflow export (state: blocks with subBlocks, edges, loops, parallels)",
};

export const importRequestSchema = z.object({
  /** The file's JSON as read: any JSON. The check returns a plain boolean, since a type guard would narrow the type to `{} | null`. */
  file: z.unknown().refine((file): boolean => file !== undefined, { message: "is required: the flow file's JSON" }),
  /** The new workflow's name; the file's own name when absent. */
  name: z.string().trim().min(1).max(200).optional(),
  /** The model every model-using block gets (`openai/gpt-4o`); without it the file's own models, mapped to Trellis ids, or `offline/echo`. */
  model: z.string().trim().min(1).max(200).optional(),
  /** The configured MCP server whose tools an MCP-bridge workflow's agents use (default `bridge`). */
  mcpServer: z.string().trim().min(1).max(100).optional(),
});
/** What a caller sends. */
export type ImportRequest = z.input<typeof importRequestSchema>;

/** One part of the file that has no Trellis equivalent, and why. */
const importNotMappedSchema = z.object({
  what: z.string().describe("Where in the file, and what it is."),
  why: z.string(),
});
export type ImportNotMapped = z.infer<typeof importNotMappedSchema>;

export const importReportSchema = z.object({
  format: z.enum(IMPORT_FORMATS).describe("The format the file was read as."),
  mapped: z
    .array(z.string())
    .describe("What became what, one line each (`steps[1] (apiCall) → API block 'API searchResults'`)."),
  notMapped: z
    .array(importNotMappedSchema)
    .describe("Every part of the file with no Trellis equivalent, and why: nothing is left out silently."),
  renamed: z
    .object({ from: z.string(), to: z.string() })
    .optional()
    .describe(
      "Present when the workspace already had a workflow of the file's name: the name it was stored under instead (`Support (copy)`).",
    ),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** The 201 answer: the stored workflow, the unfinished parts of the draft (as POST /api/workflows), and the report. */
export const importedWorkflowSchema = z.object({
  workflow: savedWorkflowSchema,
  report: importReportSchema,
});
export type ImportedWorkflow = z.infer<typeof importedWorkflowSchema>;

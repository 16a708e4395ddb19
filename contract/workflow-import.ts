import { z } from "zod";
import type { SavedWorkflow } from "./workflows";

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
  /** The file's JSON as read. */
  file: z.unknown().refine((file) => file !== undefined, { message: "is required: the flow file's JSON" }),
  /** The new workflow's name; the file's own name when absent. */
  name: z.string().trim().min(1).max(200).optional(),
  /** The model every model-using block gets (`openai/gpt-4o`); without it the file's own models, mapped to Trellis ids, or `offline/echo`. */
  model: z.string().trim().min(1).max(200).optional(),
  /** The configured MCP server whose tools an MCP-bridge workflow's agents use (default `bridge`). */
  mcpServer: z.string().trim().min(1).max(100).optional(),
});
/** What a caller sends (the schema's `file` refinement makes zod infer `{} | null`; any JSON is accepted). */
export interface ImportRequest {
  file: unknown;
  name?: string;
  model?: string;
  mcpServer?: string;
}

/** One part of the file that has no Trellis equivalent, and why. */
export interface ImportNotMapped {
  /** Where in the file (`agents[2].reroute[0]`) and what it is. */
  what: string;
  why: string;
}

export interface ImportReport {
  format: ImportFormat;
  /** What became what (`step 2 (apiCall) → API block 'API searchResults'`). */
  mapped: string[];
  notMapped: ImportNotMapped[];
  /** The workspace already had a workflow of the file's name: the import was stored under `to` (as Duplicate names a copy). */
  renamed?: { from: string; to: string };
}

/** The 201 answer: the stored workflow, the unfinished parts of the draft (as POST /api/workflows), and the report. */
export interface ImportedWorkflow {
  workflow: SavedWorkflow;
  report: ImportReport;
}

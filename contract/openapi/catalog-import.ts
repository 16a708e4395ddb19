import { importRequestSchema } from "../workflow-import";
import type { ApiOperation } from "./operation";
import { importedWorkflowSchema } from "./schemas-import";

/** Importing flows of other tools (lib/workflows/import/). */

export const IMPORT_OPERATIONS = [
  {
    operationId: "importWorkflow",
    method: "POST",
    path: "/api/workflows/import",
    tag: "Workflows",
    summary: "Import a flow file of another tool as a workflow",
    description:
      "`file` is the file's JSON: an AnythingLLM agent flow, an MCP-bridge workflow definition, a Sim workflow export, or a Trellis document (an export of this app). It is converted, checked as POST /api/workflows checks a document, and stored; the answer's `report` lists what mapped and, with the reason, everything that did not. `model` sets every model-using block's model; `mcpServer` names the configured MCP server an MCP-bridge workflow's agents use (default: `bridge`, or the workspace's only server). A file of no known shape answers 400 `unknown_format`, naming the known formats; a known format that cannot be converted answers 400 `invalid_workflow` with the path into the file (`file.agents[0].depends_on[0]`). Nothing is stored on any error.",
    access: "member",
    role: "editor",
    request: {
      schema: importRequestSchema,
      required: true,
      example: {
        file: {
          name: "Search and Summarize",
          steps: [
            {
              type: "start",
              config: { variables: [{ name: "query", value: "", description: "Search query to look up" }] },
            },
            {
              type: "llmInstruction",
              config: { instruction: "Summarize what you know about ${query}", resultVariable: "summary" },
            },
          ],
        },
        model: "offline/echo",
      },
    },
    answers: [
      {
        status: 201,
        description: "The stored workflow (version 1, with the draft's unfinished parts) and the import report.",
        schema: importedWorkflowSchema,
      },
    ],
    errors: [404],
  },
] as const satisfies readonly ApiOperation[];

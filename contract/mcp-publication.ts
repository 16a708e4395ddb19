import { z } from "zod";

/**
 * A workflow published as a tool of its workspace's MCP server (docs/CONTRACT.md section 9):
 * POST and GET /api/workflows/:id/mcp for members, and the server itself at /api/mcp (MCP
 * Streamable HTTP, API key), which lists one tool per published, deployed workflow.
 */

/** MCP tool names (the 2025-11-25 specification): 1 to 128 of letters, digits, `_`, `-` and `.`. */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const MCP_TOOL_DESCRIPTION_MAX_LENGTH = 2000;
/** Where a workspace's MCP server answers, on the origin Trellis is reached at. */
export const MCP_ENDPOINT_PATH = "/api/mcp";

/** POST /api/workflows/:id/mcp. `description` left out keeps the stored one (empty: the workflow's own description is used). */
export const mcpPublicationRequestSchema = z.strictObject({
  enabled: z.boolean({ error: "must be true or false" }),
  toolName: z
    .string({ error: "is required" })
    .regex(
      MCP_TOOL_NAME_PATTERN,
      "must be 1 to 128 letters, digits, '_', '-' or '.' (no spaces): an MCP tool name such as summarise_ticket",
    ),
  description: z
    .string()
    .trim()
    .max(MCP_TOOL_DESCRIPTION_MAX_LENGTH, `must be at most ${MCP_TOOL_DESCRIPTION_MAX_LENGTH} characters`)
    .optional(),
});
export type McpPublicationRequest = z.input<typeof mcpPublicationRequestSchema>;

/** A workflow's publication as an MCP tool, as its members see it (GET and POST /api/workflows/:id/mcp). */
export const mcpPublicationSchema = z.object({
  published: z.boolean().describe("False before the workflow was first published."),
  enabled: z.boolean(),
  toolName: z
    .string()
    .describe("The stored name; before the first publication, a suggestion made from the workflow's name."),
  description: z.string().describe("Empty: the tool is described by the workflow's own description."),
  deployed: z
    .boolean()
    .describe("Whether the workflow has an active deployment: the tool is listed, and runs, only with one."),
  endpoint: z.string().describe("The workspace's MCP server: `<origin>/api/mcp`."),
});
export type McpPublication = z.infer<typeof mcpPublicationSchema>;

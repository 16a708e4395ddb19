import { z } from "zod";

/** What the agent inspector offers as tools (GET /api/tools, GET /api/tools/mcp/:server). Never headers, env values or URL queries. */

/**
 * A setting of a tool entry (`params.<name>`) the inspector offers to pre-fill: a value given here
 * is fixed for every call (references allowed), and the model no longer supplies it.
 * `knowledgeBase` is a knowledge base id picked by name; `keyValue` a map of text values.
 */
export const toolParamInfoSchema = z.object({
  name: z.string(),
  label: z.string(),
  kind: z.enum(["text", "number", "select", "knowledgeBase", "keyValue"]),
  description: z.string().optional(),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional(),
});
export type ToolParamInfo = z.infer<typeof toolParamInfoSchema>;

/** A tool type: plain data, safe for the browser. */
export const toolInfoSchema = z.object({
  type: z.string(),
  label: z.string(),
  description: z.string(),
  sideEffects: z
    .boolean()
    .optional()
    .describe("Its calls act on the world: a test run answers them from the agent's sample instead."),
  params: z
    .array(toolParamInfoSchema)
    .optional()
    .describe(
      "Settings of the tool entry (`params.<name>`) the inspector offers to pre-fill; the model no longer supplies a pre-filled one.",
    ),
});
export type ToolInfo = z.infer<typeof toolInfoSchema>;

/** An MCP server the workspace may use, by name and target only (a command's base name, or a URL without its query). */
export const mcpServerSummarySchema = z.object({
  name: z.string(),
  transport: z.enum(["http", "sse", "stdio"]),
  target: z.string(),
});
export type McpServerSummary = z.infer<typeof mcpServerSummarySchema>;

/** GET /api/tools. A server list that cannot be read is reported in `mcpError` rather than as a failure. */
export const toolCatalogSchema = z.object({
  tools: z.array(toolInfoSchema),
  mcpServers: z.array(mcpServerSummarySchema),
  mcpError: z.string().optional().describe("Why the configured MCP server list could not be read."),
});
export type ToolCatalog = z.infer<typeof toolCatalogSchema>;

/** GET /api/tools/mcp/:server: the tools the server lists, asked of it now, shown read-only in the inspector. */
export const mcpServerToolsSchema = z.object({
  server: z.string(),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      inputSchema: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("The tool's arguments as the server describes them (a JSON Schema)."),
    }),
  ),
});
export type McpServerTools = z.infer<typeof mcpServerToolsSchema>;

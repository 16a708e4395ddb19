/** What the agent inspector offers as tools (GET /api/tools, GET /api/tools/mcp/:server). Never headers, env values or URL queries. */

/**
 * A setting of a tool entry (`params.<name>`) the inspector offers to pre-fill: a value given here
 * is fixed for every call (references allowed), and the model no longer supplies it.
 * `knowledgeBase` is a knowledge base id picked by name; `keyValue` a map of text values.
 */
export interface ToolParamInfo {
  name: string;
  label: string;
  kind: "text" | "number" | "select" | "knowledgeBase" | "keyValue";
  description?: string;
  required?: boolean;
  options?: string[];
}

/** A tool type: plain data, safe for the browser. */
export interface ToolInfo {
  type: string;
  label: string;
  description: string;
  /** Its calls act on the world: a test run answers them from the agent's sample instead of executing them. */
  sideEffects?: boolean;
  /** The entry's settings the inspector shows; none when absent. */
  params?: ToolParamInfo[];
}

/** An MCP server the workspace may use, by name and target only (a command's base name, or a URL without its query). */
export interface McpServerSummary {
  name: string;
  transport: "http" | "sse" | "stdio";
  target: string;
}

/** GET /api/tools. A server list that cannot be read is reported in `mcpError` rather than as a failure. */
export interface ToolCatalog {
  tools: ToolInfo[];
  mcpServers: McpServerSummary[];
  mcpError?: string;
}

/** GET /api/tools/mcp/:server: the tools the server lists, asked of it now. */
export interface McpServerTools {
  server: string;
  /** `inputSchema`: the tool's arguments as the server describes them (a JSON Schema), shown read-only in the inspector. */
  tools: Array<{ name: string; description: string; inputSchema?: Record<string, unknown> }>;
}

/** What a caller may choose about an import (contract/workflow-import.ts, `ImportRequest`). */
export interface ImportOptions {
  /** The model every model-using block gets; absent: the file's own models mapped to Trellis ids, else `offline/echo`. */
  model?: string;
  /** The configured MCP server an MCP-bridge workflow's agents take their tools from; none: they get no tools (reported). */
  mcpServer?: string;
}

export const DEFAULT_MCP_SERVER = "bridge";

/**
 * The server a caller named; else `bridge` when configured, else the workspace's only server; else
 * none. A named server that is not configured is kept: saving then refuses it, naming it.
 */
export function chooseMcpServer(requested: string | undefined, configured: Set<string> | null): string | undefined {
  if (requested) return requested;
  if (!configured) return undefined;
  if (configured.has(DEFAULT_MCP_SERVER)) return DEFAULT_MCP_SERVER;
  return configured.size === 1 ? [...configured][0] : undefined;
}

export {
  connectMcpServer,
  createMcpToolProvider,
  listMcpServerTools,
  MCP_TOOL_TYPE,
  type McpToolProviderDeps,
} from "./mcp-tool-provider";
export {
  describeMcpServer,
  mcpServersForWorkspace,
  loadMcpServers,
  MCP_SERVERS_ENV,
  MCP_SERVERS_FILE,
  McpConfigError,
  parseMcpServers,
  type McpServerConfig,
  type McpServers,
} from "./mcp-servers";

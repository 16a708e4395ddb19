import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { mcpPublicationEndpoints, mcpServerEndpoints } from "./mcp-endpoints";
import { createMcpPublications } from "./mcp-publication";
import { McpToolRepository } from "./mcp-tool-repository";

/** Publishing workflows as MCP tools, over the app's database. */
export const appMcpPublicationEndpoints = mcpPublicationEndpoints(
  () => createMcpPublications(new McpToolRepository(getPrisma()), getRepositories()),
  auditRequestsTo(getPrisma),
);

/** The workspaces' MCP server, over the app's runtime. */
export const appMcpServerEndpoints = mcpServerEndpoints(() => ({
  tools: new McpToolRepository(getPrisma()),
  runs: getRuntime().runs,
}));

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export function createFixtureServer(options?: { withCalculator?: boolean }): McpServer;

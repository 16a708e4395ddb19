/**
 * What an MCP client needs to reach the workspace's tools, ready to paste: a JSON entry for
 * clients configured by an `mcpServers` map (Cursor, Claude Code's .mcp.json and others that speak
 * Streamable HTTP), and a TypeScript program using the official MCP SDK. The key itself never
 * appears: it is shown once, when made, so the snippets hold a placeholder.
 */

export const API_KEY_PLACEHOLDER = "<your Trellis API key>";

export function mcpServersConfig(endpoint: string, serverName = "trellis"): string {
  return JSON.stringify(
    {
      mcpServers: {
        [serverName]: { type: "http", url: endpoint, headers: { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` } },
      },
    },
    null,
    2,
  );
}

export function mcpTypeScriptExample(endpoint: string, toolName: string, args: Record<string, unknown>): string {
  return [
    'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
    'import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";',
    "",
    `const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(endpoint)}), {`,
    "  requestInit: { headers: { Authorization: `Bearer ${process.env.TRELLIS_API_KEY}` } },",
    "});",
    'const client = new Client({ name: "my-app", version: "1.0.0" });',
    "await client.connect(transport);",
    "console.log((await client.listTools()).tools.map((tool) => tool.name));",
    `const result = await client.callTool({ name: ${JSON.stringify(toolName)}, arguments: ${JSON.stringify(args)} });`,
    'console.log(result.isError ? "failed" : "ok", result.structuredContent ?? result.content);',
    "await client.close();",
  ].join("\n");
}

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * An MCP server with the tools seed 004's example workflows name, over Streamable HTTP, standing
 * in for the servers the MCP bridge fronts. The linter and the scanner fail on the code they find
 * fault with (MCP's `isError`), so reroutes on tool outcomes can be driven by the code sent.
 */
function bridgeTools(): McpServer {
  const server = new McpServer({ name: "bridge-fixture", version: "1.0.0" });
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  const failure = (value: string) => ({ content: [{ type: "text" as const, text: value }], isError: true });
  server.registerTool(
    "categorize_issue",
    { description: "Categorises a support request.", inputSchema: { message: z.string() } },
    async ({ message }) => text(/order|arriv|deliver/i.test(message) ? "category: shipping" : "category: general"),
  );
  server.registerTool(
    "draft_response",
    { description: "Drafts a reply.", inputSchema: { category: z.string() } },
    async ({ category }) => text(`Draft reply for ${category}`),
  );
  server.registerTool(
    "run_linter",
    { description: "Lints JavaScript.", inputSchema: { code: z.string() } },
    async ({ code }) => (/\bvar\b/.test(code) ? failure("lint: use let or const instead of var") : text("lint: clean")),
  );
  server.registerTool(
    "fix_lint",
    { description: "Fixes lint problems.", inputSchema: { code: z.string() } },
    async ({ code }) => text(code.replace(/\bvar\b/g, "let")),
  );
  server.registerTool(
    "security_scanner",
    { description: "Scans for security problems.", inputSchema: { code: z.string() } },
    async ({ code }) =>
      /\beval\s*\(/.test(code) ? failure("security: eval() runs arbitrary code") : text("security: no findings"),
  );
  for (const name of ["query_database", "call_api", "read_file", "merge_data", "analyze_code", "refactor_code"]) {
    server.registerTool(
      name,
      { description: `The ${name.replace("_", " ")} tool.`, inputSchema: { input: z.string().optional() } },
      async () => text(`${name}: done`),
    );
  }
  return server;
}

export async function startBridgeMcpServer(): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const httpServer = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const parsed = body ? (JSON.parse(body) as { method?: string; params?: { name?: string } }) : undefined;
      if (parsed?.method === "tools/call" && parsed.params?.name) calls.push(parsed.params.name);
      const server = bridgeTools();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(request, response, parsed))
        .catch(() => {
          if (!response.headersSent) response.writeHead(500).end();
        });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

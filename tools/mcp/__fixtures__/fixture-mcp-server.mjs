// An MCP server for tests, built with the official SDK. Run as a script it serves over stdio
// (and writes its pid to $FIXTURE_PID_FILE so a test can check that the process exits);
// imported, createFixtureServer() gives a fresh server to connect to any transport.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

export function createFixtureServer({ withCalculator = false } = {}) {
  const server = new McpServer({ name: "trellis-fixture", version: "1.0.0" });
  server.registerTool(
    "add_numbers",
    { description: "Adds two numbers and says the sum.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: `The sum is ${a + b}` }] }),
  );
  server.registerTool("read_note", { description: "Reads a note by title.", inputSchema: { title: z.string() } }, async ({ title }) => ({
    content: [{ type: "text", text: `Note "${title}": buy milk` }],
  }));
  if (withCalculator) {
    server.registerTool("calculator", { description: "A shadowing calculator.", inputSchema: { expression: z.string() } }, async () => ({
      content: [{ type: "text", text: "42" }],
    }));
  }
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.env.FIXTURE_PID_FILE) writeFileSync(process.env.FIXTURE_PID_FILE, String(process.pid));
  const server = createFixtureServer({ withCalculator: process.env.FIXTURE_WITH_CALCULATOR === "1" });
  await server.connect(new StdioServerTransport());
}

// An MCP server for tests, built with the official SDK. Run as a script it serves over stdio
// (and writes its pid to $FIXTURE_PID_FILE so a test can check that the process exits);
// imported, createFixtureServer() gives a fresh server to connect to any transport.
import { appendFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

// With $FIXTURE_CALL_LOG set, every tool call appends a line `<tool> <arguments JSON>` to that file, so a test can
// tell which calls really reached the server (a test run must not make side-effecting ones).
function logCall(tool, args) {
  if (process.env.FIXTURE_CALL_LOG) appendFileSync(process.env.FIXTURE_CALL_LOG, `${tool} ${JSON.stringify(args)}\n`);
}

export function createFixtureServer({ withCalculator = false } = {}) {
  const server = new McpServer({ name: "trellis-fixture", version: "1.0.0" });
  server.registerTool(
    "add_numbers",
    { description: "Adds two numbers and says the sum.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => {
      logCall("add_numbers", { a, b });
      return { content: [{ type: "text", text: `The sum is ${a + b}` }] };
    },
  );
  server.registerTool(
    "read_note",
    { description: "Reads a note by title.", inputSchema: { title: z.string() }, annotations: { readOnlyHint: true } },
    async ({ title }) => {
      logCall("read_note", { title });
      return { content: [{ type: "text", text: `Note "${title}": buy milk` }] };
    },
  );
  if (withCalculator) {
    server.registerTool(
      "calculator",
      { description: "A shadowing calculator.", inputSchema: { expression: z.string() } },
      async () => ({
        content: [{ type: "text", text: "42" }],
      }),
    );
  }
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.env.FIXTURE_PID_FILE) writeFileSync(process.env.FIXTURE_PID_FILE, String(process.pid));
  const server = createFixtureServer({ withCalculator: process.env.FIXTURE_WITH_CALCULATOR === "1" });
  await server.connect(new StdioServerTransport());
}

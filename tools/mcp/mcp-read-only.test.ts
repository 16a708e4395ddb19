import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import type { ChildSpan } from "@/core";
import type { ToolContext } from "../types";
import { startHttpMcpFixture } from "./__fixtures__/mcp-fixtures";
import { parseMcpServers, type McpServerConfig } from "./mcp-servers";
import { createMcpToolProvider } from "./mcp-tool-provider";

/**
 * Which MCP tools a test run may call for real: the server entry's `readOnly` first (true, false or
 * a list), else each tool's `readOnlyHint` (the fixture marks read_note, not add_numbers).
 */

let http: Awaited<ReturnType<typeof startHttpMcpFixture>>;
beforeAll(async () => {
  http = await startHttpMcpFixture();
});
afterAll(async () => {
  await http.close();
});

async function readOnlyTools(readOnly: McpServerConfig["readOnly"]): Promise<string[]> {
  const config: McpServerConfig = { transport: "http", url: http.url, ...(readOnly === undefined ? {} : { readOnly }) };
  const marked: string[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  const span: ChildSpan = { id: "s", child: () => span, end: () => {} };
  const context: ToolContext = {
    runId: "r",
    workflowId: "w",
    blockId: "agent",
    signal: new AbortController().signal,
    depth: 0,
    variables: {},
    toolSpan: () => undefined,
    startSpan: () => span,
    onCleanup: (cleanup) => void cleanups.push(cleanup),
    markReadOnly: (name) => void marked.push(name),
  };
  try {
    await createMcpToolProvider({ servers: () => ({ fixture: config }) }).createTools(
      toolEntries([{ type: "mcp", params: { server: "fixture" } }]),
      context,
    );
  } finally {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  }
  return marked.sort();
}

describe("MCP tools a test run may call", () => {
  it("follow the tools' readOnlyHint when the server entry says nothing", async () => {
    expect(await readOnlyTools(undefined)).toEqual(["read_note"]);
  });

  it("follow the server entry when it says: all, none, or the tools it lists", async () => {
    expect(await readOnlyTools(true)).toEqual(["add_numbers", "read_note"]);
    expect(await readOnlyTools(false)).toEqual([]);
    expect(await readOnlyTools(["add_numbers"])).toEqual(["add_numbers"]);
  });

  it("refuse a readOnly that is neither true, false nor a list of names, naming it", () => {
    expect(() =>
      parseMcpServers(
        JSON.stringify({ fixture: { transport: "http", url: "https://mcp.example.com/mcp", readOnly: "yes" } }),
        "TRELLIS_MCP_SERVERS",
      ),
    ).toThrow(/fixture\.readOnly: must be true, false or a list of tool names/);
  });
});

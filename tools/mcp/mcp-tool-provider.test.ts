import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withConfigParsing } from "@/blocks/__fixtures__/with-config-parsing";
import { createAgentHandler } from "@/blocks/agent/handler";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { calculatorToolProvider } from "../calculator/calculator-tool";
import { createToolRegistry } from "../registry";
import { FIXTURE_SERVER_SCRIPT, processAlive, startHttpMcpFixture, waitUntil } from "./__fixtures__/mcp-fixtures";
import type { McpServers } from "./mcp-servers";
import { createMcpToolProvider, listMcpServerTools } from "./mcp-tool-provider";

let llm: TestLlmServer;
let http: Awaited<ReturnType<typeof startHttpMcpFixture>>;
const scratch = mkdtempSync(path.join(tmpdir(), "trellis-mcp-"));
let pidCounter = 0;

beforeAll(async () => {
  llm = await startTestLlmServer();
  http = await startHttpMcpFixture();
});
afterAll(async () => {
  await http.close();
  await llm.close();
});
beforeEach(() => {
  llm.requests.length = 0;
});

/** A stdio server config whose child writes its pid to a fresh file. */
function stdioServer(extraEnv: Record<string, string> = {}) {
  const pidFile = path.join(scratch, `pid-${++pidCounter}`);
  const config = {
    transport: "stdio" as const,
    command: process.execPath,
    args: [FIXTURE_SERVER_SCRIPT],
    env: { FIXTURE_PID_FILE: pidFile, ...extraEnv },
  };
  return { config, pid: () => (existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined) };
}

function agentWith(servers: McpServers) {
  const tools = createToolRegistry([calculatorToolProvider, createMcpToolProvider({ servers: () => servers })]);
  return withConfigParsing("agent", createAgentHandler({ models: createTestModelRegistry(llm), tools }));
}

describe("MCP tools in an agent", () => {
  it("calls a stdio server's tool, gives the model its answer, and stops the child process when the loop ends", async () => {
    const stdio = stdioServer();
    llm.enqueue(
      {
        kind: "tool-calls",
        calls: [{ id: "call_add", name: "add_numbers", arguments: { a: 2, b: 3 } }],
        usage: { prompt: 50, completion: 10 },
      },
      { kind: "text", text: "2 + 3 is 5.", usage: { prompt: 80, completion: 6 } },
    );
    const context = createInMemoryHandlerContext();
    const { output } = await agentWith({ files: stdio.config })({
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "What is 2 + 3?",
        tools: [{ type: "mcp", params: { server: "files" } }],
      },
      inputs: {},
      context,
    });

    expect(output.content).toBe("2 + 3 is 5.");
    expect(llm.requests[0]!.parsed.toolNames.sort()).toEqual(["add_numbers", "read_note"]);
    expect(llm.requests[1]!.parsed.allText).toContain("The sum is 5");
    const calls = (output.toolCalls as { list: Array<{ name: string; arguments: unknown; result: unknown }> }).list;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      name: "add_numbers",
      arguments: { a: 2, b: 3 },
      result: { content: [{ type: "text", text: "The sum is 5" }] },
    });
    expect(context.spans.find((span) => span.kind === "tool")).toMatchObject({
      name: "add_numbers",
      input: { a: 2, b: 3 },
    });

    const pid = stdio.pid();
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntil(() => !processAlive(pid!))).toBe(true);
  });

  it("offers only the tools listed in params.tools, over Streamable HTTP with the operator's headers", async () => {
    llm.enqueue(
      { kind: "tool-calls", calls: [{ name: "read_note", arguments: { title: "groceries" } }] },
      { kind: "text", text: "Buy milk." },
    );
    const before = http.requests.length;
    const { output } = await agentWith({
      notes: { transport: "http", url: http.url, headers: { authorization: "Bearer operator-token" } },
    })({
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "What is on my grocery note?",
        tools: [{ type: "mcp", params: { server: "notes", tools: ["read_note"] } }],
      },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(llm.requests[0]!.parsed.toolNames).toEqual(["read_note"]);
    expect(llm.requests[1]!.parsed.allText).toContain('Note \\"groceries\\": buy milk');
    expect(output.content).toBe("Buy milk.");
    const received = http.requests.slice(before);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.authorization === "Bearer operator-token")).toBe(true);
  });

  it("refuses an MCP tool named like a built-in one, naming both, and still stops the server", async () => {
    const stdio = stdioServer({ FIXTURE_WITH_CALCULATOR: "1" });
    const run = agentWith({ files: stdio.config })({
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "2+2?",
        tools: ["calculator", { type: "mcp", params: { server: "files" } }],
      },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    await expect(run).rejects.toThrow(
      'MCP server "files" offers a tool named "calculator", the name of the built-in "calculator" tool',
    );
    expect(llm.requests).toHaveLength(0);
    expect(await waitUntil(() => stdio.pid() !== undefined && !processAlive(stdio.pid()!))).toBe(true);
  });

  it("takes the colliding server once the entry picks its other tools", async () => {
    const stdio = stdioServer({ FIXTURE_WITH_CALCULATOR: "1" });
    llm.enqueue({ kind: "text", text: "ok" });
    await agentWith({ files: stdio.config })({
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "hi",
        tools: ["calculator", { type: "mcp", params: { server: "files", tools: ["add_numbers"] } }],
      },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(llm.requests[0]!.parsed.toolNames.sort()).toEqual(["add_numbers", "calculator"]);
  });

  it("names the configured servers when an agent asks for an unknown one, and the tools when it asks for an unknown tool", async () => {
    const agent = agentWith({ files: { transport: "http", url: http.url } });
    const config = (params: Record<string, unknown>) => ({
      config: { userPrompt: "x", tools: [{ type: "mcp", params }] },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    await expect(agent(config({ server: "github" }))).rejects.toThrow(
      'MCP server "github" is not configured (configured: files)',
    );
    await expect(agent(config({ server: "files", tools: ["delete_everything"] }))).rejects.toThrow(
      'MCP server "files" has no tool "delete_everything" (it offers: add_numbers, read_note)',
    );
  });

  it("says which server could not be reached", async () => {
    const agent = agentWith({ gone: { transport: "stdio", command: path.join(scratch, "no-such-command"), args: [] } });
    await expect(
      agent({
        config: { userPrompt: "x", tools: [{ type: "mcp", params: { server: "gone" } }] },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }),
    ).rejects.toThrow(/Could not connect to MCP server "gone"/);
  });
});

describe("listing a server's tools for the inspector", () => {
  it("gives each tool's name, description and arguments' schema, and stops the server's process", async () => {
    const server = stdioServer();
    const tools = await listMcpServerTools(server.config);
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add_numbers", "read_note"]);
    expect(tools.find((tool) => tool.name === "read_note")).toMatchObject({
      description: "Reads a note by title.",
      inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    });
    expect(await waitUntil(() => !processAlive(server.pid()!))).toBe(true);
  });
});

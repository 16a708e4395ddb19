import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceRole } from "@/contract";
import { createApiKey } from "@/lib/auth";
import { getPrisma, getRepositories } from "@/lib/db";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { answerApiRequest } from "@/lib/api";
import { serveRoute, type RouteServer } from "./__fixtures__/route-server";
import { MCP_NEEDS_API_KEY_MESSAGE, mcpServerEndpoints } from "./mcp-endpoints";
import { McpToolRepository } from "./mcp-tool-repository";

/**
 * The workspace's MCP server end to end: the real route module behind a real HTTP server, the
 * official MCP SDK client over Streamable HTTP with an API key, the real runtime executing the
 * active deployment on the test run's database.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** The app's API as the catch-all route serves it: every operation through its declaration. */
const served: Handler = (request) => answerApiRequest(request);

const prisma = getPrisma();
const repositories = getRepositories();
let server: RouteServer;
let workspace: string;
let key: { id: string; key: string };
let viewerKey: string;
let otherKey: string;
const workflows = { summarise: "", failing: "", undeployed: "", unpublished: "", disabled: "" };

const block = (id: string, type: string, name: string, config: Record<string, unknown>) => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  config,
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** Start (ticket, required; priority, default 1) → Reply `{ summary, priority }`. */
const summariseDocument = (name: string) => ({
  name,
  description: "Summarises a support ticket.",
  blocks: [
    block("start", "start", "Start", {
      inputs: [
        { name: "ticket", type: "string", description: "The ticket's text" },
        { name: "priority", type: "number", default: 1 },
      ],
    }),
    block("reply", "response", "Reply", { data: { summary: "Ticket: <start.ticket>", priority: "<start.priority>" } }),
  ],
  edges: [edge("start", "reply")],
});

/** An API block to a loopback address: the outbound guard refuses it, so every run fails. */
const failingDocument = {
  name: "Always fails",
  blocks: [
    block("start", "start", "Start", { inputs: [] }),
    block("call", "api", "Call", { url: "http://127.0.0.1:9/nothing", method: "GET" }),
  ],
  edges: [edge("start", "call")],
};

async function makeUser(name: string): Promise<string> {
  const id = randomUUID();
  await prisma.user.create({ data: { id, name, email: `${name.toLowerCase()}-${id.slice(0, 8)}@example.com` } });
  return id;
}

async function addMember(workspaceId: string, role: WorkspaceRole): Promise<string> {
  const userId = await makeUser(`Member-${role}`);
  await prisma.workspaceMember.create({ data: { workspaceId, userId, role } });
  return userId;
}

async function workflow(workspaceId: string, document: object, options: { deploy: boolean }): Promise<string> {
  const { id } = await repositories.workflows.create(workspaceId, document as never);
  if (options.deploy) await createDeploymentService(repositories).deploy(workspaceId, id, { note: "", userId: null });
  return id;
}

function callRoute(
  handler: unknown,
  url: string,
  options: { key?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${url}`, {
    method: options.body === undefined ? "GET" : "POST",
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return (handler as Handler)(request, { params: Promise.resolve(options.params ?? {}) });
}

async function publish(keyValue: string, workflowId: string, body: Record<string, unknown>) {
  return callRoute(served, `/api/workflows/${workflowId}/mcp`, { key: keyValue, body, params: { id: workflowId } });
}

async function connect(authorization?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/api/mcp`), {
    requestInit: authorization ? { headers: { authorization } } : {},
  });
  const client = new Client({ name: "trellis-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  const owner = await makeUser("Owner");
  workspace = (await repositories.workspaces.create(owner, "MCP")).id;
  key = await createApiKey(prisma, { userId: owner, workspaceId: workspace }, { name: "desktop assistant" });
  viewerKey = (
    await createApiKey(
      prisma,
      { userId: await addMember(workspace, "viewer"), workspaceId: workspace },
      { name: "viewer" },
    )
  ).key;
  workflows.summarise = await workflow(workspace, summariseDocument("Summarise ticket"), { deploy: true });
  workflows.failing = await workflow(workspace, failingDocument, { deploy: true });
  workflows.undeployed = await workflow(workspace, summariseDocument("Not deployed"), { deploy: false });
  workflows.unpublished = await workflow(workspace, summariseDocument("Not published"), { deploy: true });
  workflows.disabled = await workflow(workspace, summariseDocument("Turned off"), { deploy: true });
  for (const [id, toolName, enabled] of [
    [workflows.summarise, "summarise_ticket", true],
    [workflows.failing, "always_fails", true],
    [workflows.undeployed, "not_deployed", true],
    [workflows.disabled, "turned_off", false],
  ] as const) {
    expect((await publish(key.key, id, { enabled, toolName })).status).toBe(200);
  }
  // Another workspace publishes a deployed workflow too: the first key must never see it.
  const stranger = await makeUser("Stranger");
  const elsewhere = (await repositories.workspaces.create(stranger, "Elsewhere")).id;
  otherKey = (await createApiKey(prisma, { userId: stranger, workspaceId: elsewhere }, { name: "other" })).key;
  const foreign = await workflow(elsewhere, summariseDocument("Foreign"), { deploy: true });
  expect((await publish(otherKey, foreign, { enabled: true, toolName: "foreign_tool" })).status).toBe(200);
  server = await serveRoute({ GET: served, POST: served, DELETE: served });
});

afterAll(async () => {
  await server?.close();
});

describe("the workspace's MCP server, through the MCP SDK client", () => {
  it("lists one tool per published, deployed and enabled workflow of the key's workspace, its start inputs as the input schema", async () => {
    const client = await connect(`Bearer ${key.key}`);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "trellis" });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["always_fails", "summarise_ticket"]);
      const summarise = tools.find((tool) => tool.name === "summarise_ticket")!;
      expect(summarise.description).toBe("Summarises a support ticket.");
      expect(summarise.title).toBe("Summarise ticket");
      expect(summarise.inputSchema).toEqual({
        type: "object",
        properties: { ticket: { type: "string", description: "The ticket's text" }, priority: { type: "number" } },
        required: ["ticket"],
        additionalProperties: false,
      });
      const other = await connect(`Bearer ${otherKey}`);
      expect((await other.listTools()).tools.map((tool) => tool.name)).toEqual(["foreign_tool"]);
      await other.close();
    } finally {
      await client.close();
    }
  });

  it("calls a tool: runs the active deployment with the arguments, answers its output, and records the run as an MCP call by the key", async () => {
    const client = await connect(`Bearer ${key.key}`);
    try {
      const result = await client.callTool({
        name: "summarise_ticket",
        arguments: { ticket: "Printer on fire", priority: 3 },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ summary: "Ticket: Printer on fire", priority: 3 });
      expect(result.content).toEqual([
        { type: "text", text: JSON.stringify({ summary: "Ticket: Printer on fire", priority: 3 }, null, 2) },
      ]);
      const runId = (result._meta as Record<string, string>)["trellis/runId"]!;
      const run = await repositories.runs.get(workspace, runId);
      const active = await repositories.deployments.active(workspace, workflows.summarise);
      expect(run).toMatchObject({
        workflowId: workflows.summarise,
        status: "succeeded",
        input: { ticket: "Printer on fire", priority: 3 },
      });
      expect(run.trigger).toEqual({ kind: "mcp", apiKeyId: key.id });
      expect(run.deploymentId).toBe(active!.id);

      // Usage by API key counts the call under the key that made it.
      const usage = await callRoute(served, `/api/usage?groupBy=apiKey&trigger=mcp`, { key: key.key });
      const { rows } = (await usage.json()) as { rows: Array<{ key: string | null; label: string; runs: number }> };
      expect(rows).toEqual([
        expect.objectContaining({ key: key.id, label: expect.stringContaining("desktop assistant"), runs: 1 }),
      ]);
    } finally {
      await client.close();
    }
  });

  it("refuses a call with a missing or mistyped input, naming it, and starts no run", async () => {
    const client = await connect(`Bearer ${key.key}`);
    try {
      const before = await prisma.run.count({ where: { workflowId: workflows.summarise } });
      const missing = await client.callTool({ name: "summarise_ticket", arguments: { priority: 2 } });
      expect(missing.isError).toBe(true);
      expect(missing.content).toEqual([
        {
          type: "text",
          text: `Invalid arguments for the tool "summarise_ticket": 'ticket' is required (it has no default).`,
        },
      ]);
      const mistyped = await client.callTool({ name: "summarise_ticket", arguments: { ticket: 42, urgent: true } });
      expect(mistyped.content).toEqual([
        {
          type: "text",
          text: `Invalid arguments for the tool "summarise_ticket": 'ticket' must be a string, got number; 'urgent' is not an input of this tool (it takes 'ticket', 'priority').`,
        },
      ]);
      expect(await prisma.run.count({ where: { workflowId: workflows.summarise } })).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("answers a failed run as a tool error naming the run and its error", async () => {
    const client = await connect(`Bearer ${key.key}`);
    try {
      const result = await client.callTool({ name: "always_fails", arguments: {} });
      expect(result.isError).toBe(true);
      const runId = (result._meta as Record<string, string>)["trellis/runId"]!;
      const run = await repositories.runs.get(workspace, runId);
      expect(run).toMatchObject({ status: "failed", trigger: { kind: "mcp", apiKeyId: key.id } });
      expect(result.content).toEqual([
        { type: "text", text: `The workflow run ${runId} failed: ${run.error!.message} (${run.error!.code})` },
      ]);
      expect(run.error!.code).toBe("outbound_refused");
    } finally {
      await client.close();
    }
  });

  it("refuses a tool the workspace does not list, and a call by a viewer's key", async () => {
    const client = await connect(`Bearer ${key.key}`);
    try {
      for (const name of ["not_deployed", "turned_off", "foreign_tool"]) {
        const refused = client.callTool({ name, arguments: {} });
        await expect(refused).rejects.toThrow(McpError);
        await expect(refused).rejects.toThrow(`Unknown tool "${name}"`);
      }
    } finally {
      await client.close();
    }
    const viewer = await connect(`Bearer ${viewerKey}`);
    try {
      expect((await viewer.listTools()).tools).toHaveLength(2);
      const result = await viewer.callTool({ name: "summarise_ticket", arguments: { ticket: "x" } });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: "text", text: expect.stringContaining("role viewer, which cannot run workflows") }],
      });
    } finally {
      await viewer.close();
    }
  });

  it("answers 401 with a Bearer challenge to a client without a key or with a bad one", async () => {
    for (const authorization of [undefined, "Bearer trl_not-a-key"]) {
      const refused = connect(authorization);
      await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
      await expect(refused).rejects.toMatchObject({ code: 401 });
    }
    const raw = await fetch(`${server.origin}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toBe('Bearer realm="trellis"');
    expect(await raw.json()).toMatchObject({ error: { code: "unauthenticated" } });
  });

  it("refuses a signed-in person without a key: MCP calls are counted by key", async () => {
    const endpoints = mcpServerEndpoints(() => {
      throw new Error("not reached");
    });
    const answer = await endpoints.serve(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
      {},
      testMember(workspace, "owner"),
    );
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({
      error: { code: "unauthenticated", message: MCP_NEEDS_API_KEY_MESSAGE },
    });
  });

  it("answers 405 to GET: stateless, there is no stream to open", async () => {
    const answer = await fetch(`${server.origin}/api/mcp`, {
      headers: { authorization: `Bearer ${key.key}`, accept: "text/event-stream" },
    });
    expect(answer.status).toBe(405);
  });
});

describe("the tools' storage", () => {
  it("lists, by itself, only the enabled publications of deployed workflows of the workspace", async () => {
    const listed = await new McpToolRepository(prisma).listed(workspace);
    expect(listed.map((tool) => tool.workflowId).sort()).toEqual([workflows.failing, workflows.summarise].sort());
  });
});

import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { McpPublication, WorkspaceRole } from "@/contract";
import { createApiKey } from "@/lib/auth";
import { getPrisma, getRepositories } from "@/lib/db";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { answerApiRequest } from "@/lib/api";

/** POST and GET /api/workflows/:id/mcp through the app's API (as the catch-all route serves it), with API keys, over the test run's database. */

type ErrorBody = { error: { code: string; message: string; details: Array<{ path: string; message: string }> } };

const prisma = getPrisma();
const repositories = getRepositories();
let workspace: string;
let editorKey: string;
let viewerKey: string;
let ticketFlow: string;
let otherFlow: string;

const document = (name: string) => ({
  name,
  blocks: [
    {
      id: "start",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      config: { inputs: [{ name: "ticket", type: "string" }] },
    },
  ],
  edges: [],
});

async function keyFor(role: WorkspaceRole): Promise<string> {
  const userId = randomUUID();
  await prisma.user.create({ data: { id: userId, name: role, email: `${role}-${userId.slice(0, 8)}@example.com` } });
  await prisma.workspaceMember.create({ data: { workspaceId: workspace, userId, role } });
  return (await createApiKey(prisma, { userId, workspaceId: workspace }, { name: role })).key;
}

function call(key: string, workflowId: string, body?: unknown) {
  const request = new Request(`http://127.0.0.1:3000/api/workflows/${workflowId}/mcp`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return answerApiRequest(request);
}

beforeAll(async () => {
  workspace = (await prisma.workspace.create({ data: { name: "Publishing" } })).id;
  editorKey = await keyFor("editor");
  viewerKey = await keyFor("viewer");
  ticketFlow = (await repositories.workflows.create(workspace, document("Summarise Ticket!") as never)).id;
  otherFlow = (await repositories.workflows.create(workspace, document("Triage") as never)).id;
});

describe("publishing a workflow as an MCP tool", () => {
  it("answers a suggestion before the first publication, and the stored settings after", async () => {
    const before = (await (await call(viewerKey, ticketFlow)).json()) as McpPublication;
    expect(before).toEqual({
      published: false,
      enabled: false,
      toolName: "summarise_ticket",
      description: "",
      deployed: false,
      endpoint: "http://127.0.0.1:3000/api/mcp",
    });
    const saved = await call(editorKey, ticketFlow, {
      enabled: true,
      toolName: "summarise_ticket",
      description: "  Summarises a ticket.  ",
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      ...before,
      published: true,
      enabled: true,
      description: "Summarises a ticket.",
    });
    await createDeploymentService(repositories).deploy(workspace, ticketFlow, { note: "", userId: null });
    // Left out, the description is kept; the answer now says the workflow is deployed.
    const turnedOff = (await (
      await call(editorKey, ticketFlow, { enabled: false, toolName: "summarise_ticket" })
    ).json()) as McpPublication;
    expect(turnedOff).toMatchObject({ enabled: false, description: "Summarises a ticket.", deployed: true });
    expect(await (await call(viewerKey, ticketFlow)).json()).toEqual(turnedOff);
  });

  it("refuses a tool name that is not an MCP tool name, naming the field", async () => {
    for (const toolName of ["has space", "", "x".repeat(129), "émoji"]) {
      const refused = await call(editorKey, otherFlow, { enabled: true, toolName });
      expect(refused.status, toolName).toBe(400);
      const body = (await refused.json()) as ErrorBody;
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.details[0]).toMatchObject({
        path: "toolName",
        message: expect.stringContaining("letters, digits"),
      });
    }
    const unknownField = (await (
      await call(editorKey, otherFlow, { enabled: true, toolName: "triage", title: "x" })
    ).json()) as ErrorBody;
    expect(unknownField.error.code).toBe("invalid_request");
    const noFlag = (await (await call(editorKey, otherFlow, { toolName: "triage" })).json()) as ErrorBody;
    expect(noFlag.error.details[0]).toMatchObject({ path: "enabled" });
  });

  it("refuses a name another workflow of the workspace has (409, naming it), even while that one is off", async () => {
    const taken = await call(editorKey, otherFlow, { enabled: true, toolName: "summarise_ticket" });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as ErrorBody).error).toMatchObject({
      code: "conflict",
      message:
        'The tool name "summarise_ticket" is already used by the workflow "Summarise Ticket!" in this workspace: choose another.',
    });
    expect((await call(editorKey, otherFlow, { enabled: true, toolName: "triage" })).status).toBe(200);
    // A workflow may keep, or change, its own name.
    expect((await call(editorKey, ticketFlow, { enabled: true, toolName: "summarise_ticket" })).status).toBe(200);
  });

  it("lets viewers read but not publish, and answers 404 for an unknown workflow", async () => {
    const refused = await call(viewerKey, otherFlow, { enabled: true, toolName: "triage" });
    expect(refused.status).toBe(403);
    expect((await call(editorKey, randomUUID(), { enabled: true, toolName: "ghost" })).status).toBe(404);
    expect((await call(viewerKey, randomUUID())).status).toBe(404);
  });
});

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { openDeployTab } from "./pages/deploy-drawer";

// The first visits compile the pages and routes when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

/** Start (ticket) → Reply `{ summary }`: no model, so the answer is exact. */
async function createTicketWorkflow(request: APIRequestContext): Promise<string> {
  const block = (id: string, type: string, name: string, x: number, config: Record<string, unknown>) => ({
    id,
    type,
    name,
    position: { x, y: 0 },
    config,
  });
  const created = await request.post("/api/workflows", {
    data: {
      name: `Summarise ticket ${Date.now()}`,
      blocks: [
        block("start", "start", "Start", 0, {
          inputs: [{ name: "ticket", type: "string", description: "The ticket's text" }],
        }),
        block("reply", "response", "Reply", 300, { data: { summary: "Ticket: <start.ticket>" } }),
      ],
      edges: [{ id: "e1", source: "start", target: "reply" }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function mcpClient(endpoint: string, key: string): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

test("a workflow published as an MCP tool in the deploy drawer is listed and called by an MCP client with an API key", async ({
  page,
  request,
  baseURL,
}) => {
  const workflowId = await createTicketWorkflow(request);
  const toolName = `summarise_${Date.now()}`;

  const drawer = await openDeployTab(page, workflowId, "mcp");
  await expect(drawer.getByTestId("mcp-not-deployed")).toBeVisible({ timeout: 60_000 });
  const deployed = await request.post(`/api/workflows/${workflowId}/deployments`, { data: { note: "mcp" } });
  expect(deployed.status(), await deployed.text()).toBe(201);
  await openDeployTab(page, workflowId, "mcp");
  await expect(page.getByTestId("mcp-panel")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("mcp-not-deployed")).toHaveCount(0);
  // A name is suggested from the workflow's; a name that is no MCP tool name is refused, saying why.
  await expect(page.getByTestId("mcp-tool-name")).toHaveValue(/^summarise_ticket_\d+$/);
  await page.getByTestId("mcp-tool-name").fill("has spaces");
  await page.getByTestId("mcp-save").click();
  await expect(page.getByTestId("mcp-error")).toContainText("letters, digits");

  await page.getByTestId("mcp-tool-name").fill(toolName);
  await page.getByTestId("mcp-description").fill("Summarises a support ticket.");
  // The switch follows what is stored: it turns on once the server has saved it.
  await page.getByTestId("mcp-enabled").click();
  await expect(page.getByTestId("mcp-enabled")).toBeChecked();
  const endpoint = `${baseURL}/api/mcp`;
  await expect(page.getByTestId("mcp-endpoint")).toHaveText(endpoint);
  await expect(page.getByTestId("mcp-config")).toContainText(`"url": "${endpoint}"`);
  await expect(page.getByTestId("mcp-typescript")).toContainText(`name: "${toolName}", arguments: {"ticket":`);

  const made = await request.post("/api/api-keys", { data: { name: "MCP e2e" } });
  expect(made.status(), await made.text()).toBe(201);
  const { key } = (await made.json()) as { key: string };
  const client = await mcpClient(endpoint, key);
  try {
    const tool = (await client.listTools()).tools.find((listed) => listed.name === toolName);
    expect(tool).toMatchObject({ description: "Summarises a support ticket.", inputSchema: { required: ["ticket"] } });
    const result = await client.callTool({ name: toolName, arguments: { ticket: "The printer is on fire" } });
    expect(result.structuredContent).toEqual({ summary: "Ticket: The printer is on fire" });

    // Turned off in the drawer, it is no longer listed.
    await page.getByTestId("mcp-enabled").click();
    await expect(page.getByTestId("mcp-enabled")).not.toBeChecked();
    expect((await client.listTools()).tools.map((listed) => listed.name)).not.toContain(toolName);
  } finally {
    await client.close();
  }
});

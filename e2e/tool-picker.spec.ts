import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedLlm } from "./scripted-llm";
import { createWorkflow, EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

/**
 * The seed's support agent (knowledge search, an API call and a custom function tool) built by
 * picking tools in the inspector, with no JSON typed, then run against a scripted model that
 * calls all three.
 */
const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "knowledge", "__fixtures__", "corpus");
/** The test LLM server the app may call (playwright.config.ts allows it): the "orders API" of the agent's API call. */
const ordersApi = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4011)}/health`;

const agent: TestBlock = {
  id: "agent",
  type: "agent",
  name: "Support Agent",
  position: { x: 400, y: 160 },
  config: {
    model: "openai-compatible/gpt-4o-mini",
    systemPrompt: "Use the knowledge base before answering.",
    userPrompt: "<start.message>",
  },
};
const respond: TestBlock = {
  id: "respond",
  type: "response",
  name: "Response",
  position: { x: 760, y: 160 },
  config: { data: { answer: "<Support Agent.content>" } },
};

/** A workspace of its own, with a key for the OpenAI-compatible server (`llm`, the operator's), that the browser and its requests act in. */
async function useOwnWorkspace(page: Page, baseURL: string): Promise<void> {
  const created = await page.request.post("/api/workspaces", { data: { name: `Tool picker ${Date.now()}` } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.context().addCookies([{ name: "trellis-workspace", value: id, url: baseURL }]);
  expect(
    (await page.request.put("/api/secrets/OPENAI_COMPATIBLE_API_KEY", { data: { value: "sk-tool-picker" } })).status(),
  ).toBe(204);
}

async function policiesBase(page: Page): Promise<{ id: string; name: string }> {
  const name = `Policies ${Date.now()}`;
  const created = await page.request.post("/api/knowledge-bases", { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const upload = await page.request.post(`/api/knowledge-bases/${id}/documents`, {
    multipart: {
      file: {
        name: "refund-policy.md",
        mimeType: "text/markdown",
        buffer: readFileSync(path.join(corpus, "refund-policy.md")),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/api/knowledge-bases/${id}/documents`)).json()) as {
            documents: Array<{ status: string }>;
          }
        ).documents[0]?.status,
      {
        timeout: 30_000,
      },
    )
    .toBe("ready");
  return { id, name };
}

test("the support agent's tools are picked in the inspector, kept after a reload, sent to the model and called in the run", async ({
  page,
  baseURL,
}) => {
  const llm = await startScriptedLlm();
  try {
    await useOwnWorkspace(page, baseURL!);
    const base = await policiesBase(page);
    const workflowId = await createWorkflow(page.request, {
      name: `Support agent ${Date.now()}`,
      blocks: [START_BLOCK, agent, respond],
      edges: [
        { id: "e1", source: "start", target: "agent", sourceHandle: "out" },
        { id: "e2", source: "agent", target: "respond", sourceHandle: "out" },
      ],
    });
    const editor = new EditorPage(page);
    await editor.open(workflowId);
    await editor.select("Support Agent");
    const picker = page.getByTestId("tool-picker");
    await expect(picker).toContainText("No tools");

    // Knowledge search, its knowledge base chosen by name.
    await picker.getByTestId("tool-add").click();
    await picker.getByTestId("tool-add-builtin-knowledge_search").click();
    const search = picker.getByTestId("tool-card-0");
    await expect(search).toContainText("Knowledge search");
    await search.getByTestId("tool-card-0-param-knowledgeBaseId").selectOption({ label: base.name });
    await search.getByTestId("tool-card-0-param-topK").fill("3");

    // An API call with its URL and method pre-filled, under a name of its own.
    await picker.getByTestId("tool-add").click();
    await picker.getByTestId("tool-add-builtin-http_request").click();
    const api = picker.getByTestId("tool-card-1");
    await api.getByTestId("tool-card-1-name").fill("order_status");
    await api.getByTestId("tool-card-1-param-url").fill(ordersApi);
    await api.getByTestId("tool-card-1-param-method").selectOption("GET");
    await api.getByTestId("tool-require-approval-1").getByRole("checkbox").check();
    await api.getByTestId("tool-require-approval-1").getByRole("checkbox").uncheck();

    // A custom function: its name, description, one parameter as a row, and its code.
    await picker.getByTestId("tool-add").click();
    await picker.getByTestId("tool-add-function").click();
    const refund = picker.getByTestId("tool-card-2");
    await refund.getByTestId("tool-card-2-name").fill("refund_amount");
    await refund.getByTestId("tool-card-2-function-description").fill("Works out the refund for an order total");
    const parameter = refund.getByTestId("tool-card-2-function-parameters-properties-row").first();
    await parameter.getByLabel("Property name").fill("total");
    await parameter.getByLabel("Type").selectOption("number");
    await parameter.getByLabel("Description").fill("Order total in dollars");
    await refund.getByTestId("tool-card-2-function-code").fill("return { refund: services.inputs.total * 0.9 };");
    await editor.expectSaved();

    const expectedTools = [
      { type: "knowledge_search", params: { knowledgeBaseId: base.id, topK: 3 } },
      { type: "http_request", name: "order_status", params: { url: ordersApi, method: "GET" } },
      {
        type: "run_function",
        name: "refund_amount",
        params: {
          description: "Works out the refund for an order total",
          parameters: {
            type: "object",
            properties: { total: { type: "number", description: "Order total in dollars" } },
            required: ["total"],
            additionalProperties: false,
          },
          code: "return { refund: services.inputs.total * 0.9 };",
        },
      },
    ];
    const stored = await editor.storedWorkflow(workflowId);
    expect(stored.blocks.find((block) => block.id === "agent")!.config!.tools).toEqual(expectedTools);

    // After a reload the same three cards are there.
    await page.reload();
    await editor.select("Support Agent");
    await expect(page.getByTestId("tool-picker").locator('[data-testid^="tool-card-"][data-tool-type]')).toHaveCount(3);
    await expect(page.getByTestId("tool-card-0-param-knowledgeBaseId")).toHaveValue(base.id);
    await expect(page.getByTestId("tool-card-1-param-url")).toHaveValue(ordersApi);
    await expect(page.getByTestId("tool-card-2-name")).toHaveValue("refund_amount");
    await expect(
      page.getByTestId("tool-card-2-function-parameters-properties-row").first().getByLabel("Property name"),
    ).toHaveValue("total");

    // The model asks for all three tools at once, then answers from their results.
    llm.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { name: "knowledge_search", arguments: { query: "refund policy" } },
          { name: "order_status", arguments: {} },
          { name: "refund_amount", arguments: { total: 40 } },
        ],
      },
      { kind: "text", text: "You can get a full refund of $36 within 30 days." },
    );
    const run = new RunPage(page);
    await run.startRun({ message: "Can I get my money back for order 1001?" });
    await run.expectStatus("succeeded", 60_000);

    const [first, second] = llm.requests;
    expect([...first!.parsed.toolNames].sort()).toEqual(["knowledge_search", "order_status", "refund_amount"]);
    const offered = (
      first!.body as {
        tools: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }>;
      }
    ).tools;
    // The pre-filled URL is not the model's to choose; the function's parameters are the rows.
    expect(
      Object.keys(offered.find((tool) => tool.function.name === "order_status")!.function.parameters.properties),
    ).not.toContain("url");
    expect(offered.find((tool) => tool.function.name === "refund_amount")!.function.parameters.properties).toEqual({
      total: { type: "number", description: "Order total in dollars" },
    });
    const results = JSON.stringify(second!.body);
    expect(results).toContain("full refund within 30 days");
    expect(results).toContain('\\"refund\\":36');
    expect(results).toContain('\\"ok\\":true');

    await page.getByTestId("run-tab-trace").click();
    const toolRows = page.locator('[data-testid^="trace-row-"][data-kind="tool"]');
    await expect(toolRows).toHaveCount(3);
    for (const name of ["knowledge_search", "order_status", "refund_amount"]) {
      await expect(toolRows.filter({ hasText: name })).toHaveCount(1);
    }
    const runId = await run.runId();
    const calls = (await run.apiRun(runId)).spans.filter((span) => span.kind === "tool");
    expect(calls.map((span) => [span.name, span.status]).sort()).toEqual([
      ["knowledge_search", "succeeded"],
      ["order_status", "succeeded"],
      ["refund_amount", "succeeded"],
    ]);
  } finally {
    await llm.close();
  }
});

test("memories and the response format are edited as rows, and a tool that does not exist is refused at save", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Agent editors ${Date.now()}`,
    blocks: [START_BLOCK, { ...agent, config: { model: "offline/echo", userPrompt: "<start.message>" } }],
    edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Support Agent");

  // Memories: two messages, the second moved first.
  const memories = editor.field("memories");
  await memories.getByTestId("memory-add").click();
  await memories.getByTestId("memory-content-0").fill("Where is my parcel?");
  await memories.getByTestId("memory-add").click();
  await memories.getByTestId("memory-content-1").fill("It left the depot today.");
  await memories.getByTestId("memory-row").nth(1).getByRole("button", { name: "Move up" }).click();

  // Response format: two properties, a repeated name refused in place, and an example answer.
  const format = editor.field("responseFormat");
  await format.getByTestId("field-responseFormat-properties-add").click();
  await format.getByTestId("field-responseFormat-properties-add").click();
  const rows = format.getByTestId("field-responseFormat-properties-row");
  await rows.nth(0).getByLabel("Property name").fill("category");
  await rows.nth(0).getByLabel("Description").fill("billing");
  await rows.nth(1).getByLabel("Property name").fill("category");
  await expect(format.getByTestId("field-responseFormat-issue")).toContainText('"category" is used twice');
  await rows.nth(1).getByLabel("Property name").fill("urgent");
  await rows.nth(1).getByLabel("Type").selectOption("boolean");
  await rows.nth(1).getByText("required").click();
  await expect(format.getByTestId("field-responseFormat-issue")).toHaveCount(0);
  await expect(format.getByTestId("field-responseFormat-example")).toHaveText(
    JSON.stringify({ category: "billing", urgent: true }, null, 2),
  );
  await editor.expectSaved();

  const config = (await editor.storedWorkflow(workflowId)).blocks.find((block) => block.id === "agent")!.config!;
  expect(config.memories).toEqual([
    { role: "assistant", content: "It left the depot today." },
    { role: "user", content: "Where is my parcel?" },
  ]);
  expect(config.responseFormat).toEqual({
    type: "object",
    properties: { category: { type: "string", description: "billing" }, urgent: { type: "boolean" } },
    required: ["category"],
    additionalProperties: false,
  });

  // The JSON view checks the schema against JSON Schema.
  await format.getByTestId("field-responseFormat-json-mode").click();
  await format
    .getByTestId("field-responseFormat-json")
    .fill('{ "type": "object", "properties": { "a": { "type": "text" } } }');
  await expect(format.getByTestId("field-responseFormat-issue")).toContainText("is not a valid JSON Schema");

  // A tool that does not exist, written through the JSON escape hatch, is refused at save, naming it.
  const picker = page.getByTestId("tool-picker");
  await picker.getByTestId("tools-json-toggle").click();
  await editor.field("tools").fill('["web_serch"]');
  await expect(editor.saveStatus).toHaveAttribute("data-status", "error");
  await expect(editor.saveStatus).toContainText("tool 'web_serch' does not exist");
});

test("MCP servers' tools are asked of them live (a server that is down says so), and a workflow is picked as a tool", async ({
  page,
  request,
}) => {
  const helperName = `Summarise ticket ${Date.now()}`;
  const helperId = await createWorkflow(request, { name: helperName, blocks: [START_BLOCK] });
  const workflowId = await createWorkflow(request, {
    name: `Agent with MCP ${Date.now()}`,
    blocks: [START_BLOCK, { ...agent, config: { model: "offline/echo", userPrompt: "<start.message>" } }],
    edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Support Agent");
  const picker = page.getByTestId("tool-picker");

  await picker.getByTestId("tool-add").click();
  const down = picker.getByTestId("tool-add-mcp-down");
  await down.getByRole("button", { name: /down/ }).click();
  await expect(down.getByTestId("mcp-error-down")).toContainText('MCP server "down" did not answer');
  const notes = picker.getByTestId("tool-add-mcp-notes");
  await notes.getByRole("button", { name: /notes/ }).click();
  await expect(notes.getByTestId("tool-add-mcp-notes-add_numbers")).toContainText("Adds two numbers");
  await notes.getByTestId("tool-add-mcp-notes-read_note").click();
  const card = picker.getByTestId("tool-card-0");
  await expect(card).toContainText("MCP: notes");
  await expect(card).toContainText("read_note");
  // Its arguments, as the server describes them.
  await card.getByTestId("tool-card-0-show-parameters").click();
  await expect(card.getByTestId("tool-card-0-parameters")).toContainText("title: string (required)");
  await card.getByTestId("tool-route-outcome-0").getByRole("checkbox").check();

  await picker.getByTestId("tool-add").click();
  await picker.getByTestId(`tool-add-workflow-${helperId}`).click();
  const workflowCard = picker.getByTestId("tool-card-1");
  await expect(workflowCard).toContainText(helperName);
  // Its start input pre-filled: the model is no longer asked for it.
  await workflowCard.getByTestId("tool-card-1-input-message").fill("Summarise the last ticket");
  await workflowCard.getByTestId("tool-direct-output-1").getByRole("checkbox").check();
  await workflowCard.getByTestId("tool-require-approval-1").getByRole("checkbox").check();
  await editor.expectSaved();

  expect((await editor.storedWorkflow(workflowId)).blocks.find((block) => block.id === "agent")!.config!.tools).toEqual(
    [
      { type: "mcp", params: { server: "notes", tools: ["read_note"] }, routeOnOutcome: true },
      {
        type: "workflow",
        name: expect.stringMatching(/^summarise_ticket_\d+$/),
        params: { workflowId: helperId, inputs: { message: "Summarise the last ticket" } },
        directOutput: true,
        requireApproval: true,
      },
    ],
  );
  await expect(page.getByTestId("handle-agent-tool:read_note:success")).toBeVisible();
});

import { expect, test } from "@playwright/test";
import type { ApiRun } from "@/contract";
import { createWorkflow, EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("a test run answers the API block from the sample typed in the inspector, and the trace marks the call simulated", async ({
  page,
  request,
}) => {
  // The API's host does not exist: a real run could not reach it, a test run never tries.
  const workflowId = await createWorkflow(request, {
    name: `Test run ${Date.now()}`,
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 80, y: 160 }, config: { inputs: [] } },
      {
        id: "api",
        type: "api",
        name: "Create Order",
        position: { x: 380, y: 160 },
        config: { url: "https://orders.example.invalid/orders", method: "POST", body: { item: "book" } },
      },
      {
        id: "reply",
        type: "response",
        name: "Reply",
        position: { x: 680, y: 160 },
        config: { data: "<Create Order.data.orderId>" },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "api" },
      { id: "e2", source: "api", target: "reply" },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  // The sample, typed in the inspector's Test sample section.
  await editor.select("Create Order");
  const section = page.getByTestId("test-sample-section");
  await expect(section).toBeVisible();
  await section.getByTestId("test-sample-http-enabled").check();
  await section.getByTestId("test-sample-http-status").fill("201");
  await section.getByTestId("test-sample-http-body").fill('{"orderId": "sample-42"}');
  await editor.expectSaved();

  await page.getByTestId("test-run-button").click();
  await expect(page.getByTestId("test-run-note")).toBeVisible();
  await page.getByTestId("run-submit").click();
  const run = new RunPage(page);
  await run.expectStatus("succeeded");

  await expect(page.getByTestId("run-test")).toHaveText("Test run");
  await expect(page.getByTestId("block-run-simulated-api")).toHaveText("simulated");
  await expect(page.getByTestId("block-run-simulated-reply")).toHaveCount(0);

  const runId = await run.runId();
  const stored = await run.apiRun(runId);
  expect(stored.test).toBe(true);
  expect(stored.output).toBe("sample-42");
  const apiSpan = stored.spans.find((span) => span.kind === "block" && span.blockId === "api")!;
  expect(apiSpan.simulated).toBe("sample");

  // The trace: the API block's row has the badge, and its details show the sample's answer.
  await expect(page.getByTestId(`trace-simulated-${apiSpan.id}`)).toHaveText("simulated");
  await page.getByTestId(`trace-row-${apiSpan.id}`).click();
  await expect(page.getByTestId("span-simulated")).toContainText("not sent: this is a test run");
  await expect(page.getByTestId("span-output")).toContainText('"status": 201');
  await expect(page.getByTestId("span-output")).toContainText("sample-42");

  // The history marks it as a test run.
  await page.getByTestId("run-tab-history").click();
  await expect(
    page.locator(`[data-testid="history-row"][data-run-id="${runId}"]`).getByTestId("history-test"),
  ).toHaveText("test");
});

test("an agent set to a recorded answer returns it in a test run without calling its model", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Recorded answer ${Date.now()}`,
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 80, y: 160 }, config: { inputs: [] } },
      {
        id: "writer",
        type: "agent",
        name: "Writer",
        position: { x: 380, y: 160 },
        config: { model: "openai/gpt-4o-mini", userPrompt: "Say hello" },
      },
      {
        id: "reply",
        type: "response",
        name: "Reply",
        position: { x: 680, y: 160 },
        config: { data: "<Writer.content>" },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "writer" },
      { id: "e2", source: "writer", target: "reply" },
    ],
  });
  // A real run first: its answer is the one to record.
  const finished = await request.post(`/api/workflows/${workflowId}/runs`, { data: { wait: true }, timeout: 60_000 });
  expect(finished.ok(), await finished.text()).toBe(true);
  const source = (await finished.json()) as ApiRun;
  expect(source.status).toBe("succeeded");
  expect(source.spans.filter((span) => span.kind === "model")).toHaveLength(1);

  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Writer");
  const picker = page.getByTestId("test-sample-recorded-select");
  await expect(picker.locator("option", { hasText: `run ${source.id.slice(-8)}` })).toHaveCount(1);
  await picker.selectOption({ index: 1 });
  await editor.expectSaved();

  await page.getByTestId("test-run-button").click();
  await page.getByTestId("run-submit").click();
  const run = new RunPage(page);
  await run.expectStatus("succeeded");
  await expect(page.getByTestId("block-run-simulated-writer")).toHaveText("recorded answer");

  const tested = await run.apiRun(await run.runId());
  expect(tested.test).toBe(true);
  expect(tested.output).toBe(source.output);
  expect(tested.spans.filter((span) => span.kind === "model")).toHaveLength(0);
  expect(tested.tokens.total).toBe(0);
});

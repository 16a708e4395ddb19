import { expect, test } from "@playwright/test";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER, type ApiRun } from "@/contract";
import { formatDollars } from "../components/ui/format";
import { EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

const AGENT: TestBlock = {
  id: "agent",
  type: "agent",
  name: "Agent",
  position: { x: 400, y: 160 },
  config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
};

test("a price set in Settings › Prices is what the next run is charged, marked as an override in the picker and the trace", async ({
  page,
  request,
  baseURL,
}) => {
  // A workspace of its own, so its price changes nothing for the other tests.
  const created = await request.post("/api/workspaces", { data: { name: `Prices ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const workspaceId = ((await created.json()) as { id: string }).id;
  const workflow = await request.post("/api/workflows", {
    headers: { [WORKSPACE_HEADER]: workspaceId },
    data: {
      name: "Priced agent",
      blocks: [START_BLOCK, AGENT],
      edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
    },
  });
  expect(workflow.status(), await workflow.text()).toBe(201);
  const workflowId = ((await workflow.json()) as { id: string }).id;
  await page.context().addCookies([{ name: WORKSPACE_COOKIE, value: workspaceId, url: baseURL! }]);

  // Settings › Prices: the catalog's version and date, then a price refused and one saved.
  await page.goto("/settings/prices");
  await expect(page.getByTestId("prices-catalog")).toHaveText(
    /^Prices: genai-prices \d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)\.$/,
  );
  await page.getByTestId("price-model").fill("openai/gpt-4o-mini");
  await page.getByTestId("price-input").fill("-1");
  await page.getByTestId("price-output").fill("12");
  await page.getByRole("button", { name: "Save price" }).click();
  await expect(page.getByTestId("price-error")).toContainText("input");
  await page.getByTestId("price-input").fill("3");
  await page.getByRole("button", { name: "Save price" }).click();
  await expect(page.getByTestId("price-saved")).toBeVisible();
  const row = page.getByTestId("price-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("price-rates")).toHaveText("$3 in · $12 out per 1M tokens");

  // The model picker shows the workspace's price, marked.
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Agent");
  await expect(page.getByTestId("model-picker-summary")).toContainText("$3 in · $12 out per 1M tokens");
  await expect(page.getByTestId("model-picker-summary").getByTestId("model-price-override")).toBeVisible();
  await page.getByTestId("model-picker-input").click();
  await expect(page.getByTestId("model-picker-catalog")).toContainText(/Prices: genai-prices \d+\.\d+\.\d+/);
  await page.keyboard.press("Escape");

  // A run: its model call is charged at $3 / $12 per million tokens, and the trace says so.
  const run = new RunPage(page);
  await run.startRun({ message: "What does this cost?" });
  await run.expectStatus("succeeded");
  const runId = await run.runId();
  const stored = (await (
    await request.get(`/api/runs/${runId}`, { headers: { [WORKSPACE_HEADER]: workspaceId } })
  ).json()) as ApiRun;
  const call = stored.spans.find((span) => span.kind === "model")!;
  expect(call.price).toEqual({
    source: "workspace-override",
    match: "openai/gpt-4o-mini",
    prices: { input: 3, output: 12 },
  });
  const tokens = call.tokens!;
  expect(call.cost!.total).toBeCloseTo((tokens.prompt * 3 + tokens.completion * 12) / 1e6, 12);

  const mark = page.getByTestId(`trace-price-override-${call.id}`);
  await expect(mark).toHaveText("override");
  await expect(mark).toHaveAttribute(
    "title",
    "Priced at this workspace's price (openai/gpt-4o-mini): $3 in · $12 out per 1M tokens",
  );
  await page.getByTestId(`trace-row-${call.id}`).click();
  const details = page.getByTestId("span-details");
  await expect(details.getByTestId("span-cost-total")).toContainText(formatDollars(call.cost!.total));
  await expect(details.getByTestId("span-price-override")).toBeVisible();
  await expect(details.getByTestId("span-price")).toHaveText(
    "this workspace's price (openai/gpt-4o-mini): $3 in · $12 out per 1M tokens",
  );
});

import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

/** A cheap call (at most 100 output tokens), then one whose worst case (10,000 output tokens of gpt-4o-mini, $0.006) no small cap allows. */
const BLOCKS = [
  START_BLOCK,
  {
    id: "draft",
    type: "agent",
    name: "Draft",
    position: { x: 380, y: 160 },
    config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>", maxTokens: 100 },
  },
  {
    id: "expand",
    type: "agent",
    name: "Expand",
    position: { x: 680, y: 160 },
    config: { model: "openai/gpt-4o-mini", userPrompt: "Expand: <draft.content>", maxTokens: 10_000 },
  },
];

test("a budget per run set in the workflow's settings stops the run before the call that could cross it, and the toolbar shows spending against it", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: "Budgeted writer",
    blocks: BLOCKS,
    edges: [
      { id: "e1", source: "start", sourceHandle: "out", target: "draft" },
      { id: "e2", source: "draft", sourceHandle: "out", target: "expand" },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  // Nothing selected: the workflow's settings. A bad amount is refused in words and not saved.
  const budget = page.getByTestId("budget-per-run");
  await budget.fill("-1");
  await expect(page.getByText("The budget must be zero or more (US dollars)")).toBeVisible();
  await budget.fill("0.001");
  await editor.expectSaved();
  const saved = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { settings?: unknown };
  expect(saved.settings).toMatchObject({ budget: { maxCostPerRun: 0.001 } });

  const run = new RunPage(page);
  await run.startRun({ message: "Tell me about budgets" });
  await run.expectStatus("failed");

  const stored = await run.apiRun(await run.runId());
  expect(stored.error?.code).toBe("budget_exceeded");
  expect(stored.error?.message).toContain("Block 'Expand' was stopped before calling openai/gpt-4o-mini");
  expect(stored.error?.message).toContain("of the workflow's budget per run of $0.001");
  // Draft ran and cost something; Expand never reached the model.
  expect(stored.cost?.total).toBeGreaterThan(0);
  expect(stored.spans.filter((span) => span.kind === "model" && span.status === "succeeded")).toHaveLength(1);

  await expect(page.getByTestId("run-budget-text")).toContainText("of $0.001");
  await expect(page.getByTestId("run-budget").getByRole("meter")).toHaveAttribute(
    "aria-valuenow",
    String(stored.cost!.total),
  );
  await page.getByTestId("run-tab-console").click();
  await expect(page.getByTestId("run-console")).toContainText(
    "Block 'Expand' was stopped before calling openai/gpt-4o-mini",
  );
  await expect(page.getByTestId("run-console")).toContainText("Run started, with a budget of $0.001 (the workflow's)");
});

test("Settings › Budgets sets the workspace's monthly cap, refusing a bad amount in words", async ({
  page,
  request,
}) => {
  await page.goto("/settings/budgets");
  const field = page.getByLabel(/^Monthly cap of Workspace/);
  await field.fill("lots");
  await expect(page.getByText("The cap must be a number of US dollars")).toBeVisible();
  await field.fill("25");
  const row = page.getByTestId("budget-row").first();
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("of $25.00");
  const stored = (await (await request.get("/api/budgets")).json()) as { workspace: { monthlyCap: number | null } };
  expect(stored.workspace.monthlyCap).toBe(25);
  // Removed again, so other tests in this workspace run uncapped.
  await row.getByLabel(/^Monthly cap of Workspace/).fill("");
  await row.getByRole("button", { name: "Save" }).click();
  await expect
    .poll(async () => ((await (await request.get("/api/budgets")).json()) as typeof stored).workspace.monthlyCap)
    .toBeNull();
});

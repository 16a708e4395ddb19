import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1280, height: 800 } });

const AGENT: TestBlock = {
  id: "agent",
  type: "agent",
  name: "Writer",
  position: { x: 400, y: 160 },
  config: { model: "offline/echo", userPrompt: "<start.message>" },
};
const EDGES = [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }];

test("Ctrl+Enter opens the Run form with its first field focused, and in the form starts the run", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Ctrl+Enter ${Date.now()}`,
    blocks: [START_BLOCK, AGENT],
    edges: EDGES,
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.focusCanvas();
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("run-form")).toBeVisible();
  await expect(page.getByTestId("run-input-message")).toBeFocused();
  await page.keyboard.type("hello there");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("run-form")).toHaveCount(0);
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i, { timeout: 60_000 });
});

test("the model picker shows each model's whole name, never cut short", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Picker ${Date.now()}`,
    blocks: [START_BLOCK, AGENT],
    edges: EDGES,
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Writer");
  await page.getByTestId("model-picker-input").click();
  await page.getByTestId("model-picker-input").fill("openai");
  // Each option's first line: its logo, label and marks (the price beside it).
  const labels = page.locator('[data-testid="model-option"] > div:first-child > span:first-child');
  await expect(labels.first()).toBeVisible();
  const cut = await labels.evaluateAll((elements) =>
    elements.filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.textContent),
  );
  expect(cut).toEqual([]);
});

test("the deploy drawer disables Deploy when the draft does what the active deployment does", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `No changes ${Date.now()}`,
    blocks: [START_BLOCK, AGENT],
    edges: EDGES,
  });
  const deployed = await request.post(`/api/workflows/${workflowId}/deployments`, { data: { note: "first" } });
  expect(deployed.status(), await deployed.text()).toBe(201);
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await page.getByTestId("deploy-open").click();
  const drawer = page.getByTestId("deploy-drawer");
  await expect(drawer.getByTestId("draft-diff")).toHaveAttribute("data-empty", "true");
  await expect(drawer.getByTestId("deploy-submit")).toBeDisabled();
  await expect(drawer.getByTestId("deploy-submit")).toHaveAttribute("title", /Nothing to deploy/);
});

test("the canvas shows React Flow's attribution, as its authors ask, and the console has no warning about hiding it", async ({
  page,
  request,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("attribution")) warnings.push(message.text());
  });
  const workflowId = await createWorkflow(request, { name: `Attribution ${Date.now()}`, blocks: [START_BLOCK] });
  await new EditorPage(page).open(workflowId);
  await expect(page.locator('.react-flow__attribution a[href*="reactflow.dev"]')).toBeVisible();
  expect(warnings).toEqual([]);
});

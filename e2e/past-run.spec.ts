import { expect, test } from "@playwright/test";
import type { ApiRun } from "@/contract";
import { runHref } from "../components/ui/run-href";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor and run pages when the server runs `next dev`.
test.describe.configure({ timeout: 240_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

/** Renames the selected block through the inspector. */
async function rename(editor: EditorPage, from: string, to: string) {
  await editor.select(from);
  await editor.page.getByTestId("block-inspector").getByTestId("field-name").fill(to);
  await expect(editor.block(to)).toBeVisible();
}

test("a past run opens by its URL on the graph it ran, with its date, status and version, after the workflow changed", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Past run ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "greet",
        type: "function",
        name: "Greet",
        position: { x: 420, y: 160 },
        config: { code: 'throw new Error("no greeting today");' },
      },
    ],
    edges: [{ id: "start-greet", source: "start", target: "greet", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  const run = new RunPage(page);
  await editor.open(workflowId);

  // The run started in the editor stays on the editable canvas.
  await run.startRun({ message: "hello" });
  await run.expectStatus("failed", 90_000);
  await expect(run.nodeStatus("greet")).toHaveText("failed");
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
  await expect(page.getByTestId("past-run-banner")).toHaveCount(0);
  const oldRunId = await run.runId();
  const oldRun = await run.apiRun(oldRunId);
  expect(oldRun.workflowVersion).toBe(1);

  // The workflow changes: the failed block is renamed and another block is added.
  await rename(editor, "Greet", "Welcome");
  await editor.dragFromPalette("function", { x: 900, y: 420 });
  await expect(page.locator(".react-flow__node")).toHaveCount(3);
  await editor.expectSaved();
  const current = await editor.storedWorkflow(workflowId);
  expect(current.version).toBeGreaterThan(1);
  const added = current.blocks.find((block) => block.id !== "start" && block.id !== "greet")!;

  // The old run by its URL: the graph it ran, its failure on the block as it was named then.
  await page.goto(runHref(workflowId, oldRunId));
  const banner = page.getByTestId("past-run-banner");
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(editor.block("Greet")).toBeVisible();
  await expect(editor.block("Welcome")).toHaveCount(0);
  await expect(editor.block(added.name)).toHaveCount(0);
  await expect(page.locator(".react-flow__node")).toHaveCount(2);
  await expect(run.nodeStatus("greet")).toHaveText("failed");
  await expect(page.getByTestId("trace-panel")).toHaveAttribute("data-run-id", oldRunId);

  // The banner: when it ran, how it ended, the version it ran against today's.
  const date = banner.getByTestId("past-run-date");
  await expect(date).toHaveAttribute("datetime", oldRun.startedAt);
  await expect(date).toHaveText(new RegExp(String(new Date(oldRun.startedAt).getFullYear())));
  await expect(banner.getByTestId("past-run-status")).toHaveAttribute("data-status", "failed");
  await expect(banner.getByTestId("past-run-version")).toHaveText(
    `Version 1, as it ran (the workflow is now at version ${current.version}). Read-only.`,
  );
  // Read-only: no palette, no Run button, nothing to rename.
  await expect(page.getByTestId("palette-item-function")).toHaveCount(0);
  await expect(page.getByTestId("run-button")).toHaveCount(0);
  // Deploy would deploy today's draft, not what is shown: it is not offered here.
  await expect(page.getByTestId("deploy-open")).toHaveCount(0);
  await expect(page.getByTestId("view-only")).toHaveText("As it ran");

  // "Open current" goes back to the workflow as it is now, editable.
  await banner.getByTestId("open-current").click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
  await expect(editor.block("Welcome")).toBeVisible();
  await expect(editor.block(added.name)).toBeVisible();
  await expect(editor.block("Greet")).toHaveCount(0);
  await expect(page.getByTestId("past-run-banner")).toHaveCount(0);

  // The run history leads to the run's page too.
  await page.getByTestId("run-tab-history").click();
  // Its time is the run's permalink, to open in a new tab or copy.
  await expect(
    page.locator(`[data-testid="history-row"][data-run-id="${oldRunId}"]`).getByTestId("history-permalink"),
  ).toHaveAttribute("href", `/workflows/${workflowId}/runs/${oldRunId}`);
  await page.locator(`[data-testid="history-row"][data-run-id="${oldRunId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}/runs/${oldRunId}$`));
  await expect(editor.block("Greet")).toBeVisible();
  await expect(editor.block("Welcome")).toHaveCount(0);
});

test("the older ?run= link shows the run on the graph it ran, not today's", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Past run link ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "greet", type: "function", name: "Greet", position: { x: 420, y: 160 }, config: { code: "return 1;" } },
    ],
    edges: [{ id: "start-greet", source: "start", target: "greet", sourceHandle: "out" }],
  });
  const finished = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input: { message: "hi" }, wait: true },
    timeout: 120_000,
  });
  expect(finished.ok(), await finished.text()).toBe(true);
  const oldRun = (await finished.json()) as ApiRun;

  // Renamed and grown through the API since.
  const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    name: string;
    version: number;
    blocks: Array<{ id: string; name: string }>;
    edges: unknown[];
  };
  const renamed = {
    name: stored.name,
    version: stored.version,
    edges: stored.edges,
    blocks: [
      ...stored.blocks.map((block) => (block.id === "greet" ? { ...block, name: "Welcome" } : block)),
      {
        id: "later",
        type: "function",
        name: "Added Later",
        position: { x: 800, y: 160 },
        config: { code: "return 2;" },
      },
    ],
  };
  const saved = await request.put(`/api/workflows/${workflowId}`, { data: renamed });
  expect(saved.ok(), await saved.text()).toBe(true);

  // Defect 5: this link painted the run onto today's graph ("Welcome", "Added Later"), with no banner or date.
  await page.goto(`/workflows/${workflowId}?run=${oldRun.id}`);
  const editor = new EditorPage(page);
  await expect(editor.block("Greet")).toBeVisible({ timeout: 60_000 });
  await expect(editor.block("Welcome")).toHaveCount(0);
  await expect(editor.block("Added Later")).toHaveCount(0);
  await expect(new RunPage(page).nodeStatus("greet")).toHaveText("succeeded");
  await expect(page.getByTestId("past-run-banner")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}/runs/${oldRun.id}$`));
});

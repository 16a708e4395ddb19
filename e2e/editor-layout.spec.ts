import { expect, test, type Page } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// Under `next dev` the first visit of a page compiles it, which can take a minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

/** Every toolbar action, by test id: each must be on screen, or in the "More actions" menu. */
const TOOLBAR_ACTIONS = [
  "run-button",
  "test-run-button",
  "evaluations-open",
  "deploy-open",
  "undo",
  "redo",
  "auto-layout",
  "fit-view",
  "show-shortcuts",
] as const;

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 800, height: 900 },
] as const;

async function isOnScreen(page: Page, testId: string): Promise<boolean> {
  const inline = page.getByTestId("editor-toolbar").getByTestId(testId);
  if (!(await inline.isVisible())) return false;
  const box = await inline.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

async function widthOf(page: Page, testId: string): Promise<number> {
  return (await page.getByTestId(testId).boundingBox())!.width;
}

test("the editor fits 1280 to 800 px wide after a run with a budget: one toolbar line, no sideways scroll, every action reachable, the canvas at least half", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/workflows", {
    data: {
      name: "A workflow with a name long enough to need the room it is given in the toolbar",
      blocks: [
        START_BLOCK,
        {
          id: "agent",
          type: "agent",
          name: "Writer",
          position: { x: 400, y: 160 },
          config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
      settings: { budget: { maxCostPerRun: 1 } },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = ((await created.json()) as { id: string }).id;
  const editor = new EditorPage(page);
  await page.setViewportSize(SIZES[0]);
  await editor.open(workflowId);
  // A run with its totals and budget meter in the toolbar: what used to wrap and scroll sideways.
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-form").getByRole("textbox").first().fill("hello");
  await page.getByTestId("run-submit").click();
  await expect(page.getByTestId("run-status")).toHaveText(/succeeded/i, { timeout: 60_000 });
  await expect(page.getByTestId("run-budget")).toBeVisible();

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const label = `${size.width}x${size.height}`;
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: label })
      .toBeLessThanOrEqual(0);
    const toolbar = page.getByTestId("editor-toolbar");
    expect(await toolbar.evaluate((element) => element.scrollWidth - element.clientWidth), label).toBeLessThanOrEqual(
      0,
    );
    // One line: the toolbar keeps its height, and no button's text breaks onto a second line.
    expect((await toolbar.boundingBox())!.height, label).toBeLessThanOrEqual(49);
    for (const button of await toolbar.locator("button").all())
      if (await button.isVisible()) expect((await button.boundingBox())!.height, label).toBeLessThanOrEqual(36);

    const offScreen: string[] = [];
    for (const action of TOOLBAR_ACTIONS) if (!(await isOnScreen(page, action))) offScreen.push(action);
    if (offScreen.length > 0) {
      expect(await isOnScreen(page, "toolbar-more"), `${label}: ${offScreen.join(", ")} need the menu`).toBe(true);
      await page.getByTestId("toolbar-more").click();
      for (const action of offScreen) await expect(page.getByTestId(`menu-${action}`), label).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("toolbar-menu")).toHaveCount(0);
    }
    expect(await widthOf(page, "canvas"), label).toBeGreaterThanOrEqual(size.width / 2);
  }

  // The menu's actions work: Keyboard shortcuts opens its dialog.
  await page.getByTestId("toolbar-more").click();
  await page.getByTestId("menu-show-shortcuts").click();
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("palette and inspector collapse to icons and reopen; panels resize with the keyboard and keep their sizes", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, { name: `Panels ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await editor.open(workflowId);

  // Collapsed, the palette is a column of icons that still adds blocks; both reopen.
  await page.getByTestId("palette-collapse").click();
  await expect(page.getByTestId("palette")).toHaveAttribute("data-collapsed", "true");
  expect(await widthOf(page, "palette")).toBeLessThan(60);
  await page.getByRole("button", { name: "Add Agent" }).click();
  await expect(page.locator(".react-flow__node")).toHaveCount(2);
  await page.getByTestId("palette-expand").click();
  await expect(page.getByTestId("palette-search")).toBeVisible();
  await page.getByTestId("inspector-collapse").click();
  await expect(page.getByTestId("inspector")).toHaveAttribute("data-collapsed", "true");
  await page.getByTestId("inspector-expand").click();
  await expect(page.getByTestId("inspector")).not.toHaveAttribute("data-collapsed", "true");

  // The inspector widens from the keyboard: focus its separator, then the arrow keys.
  const before = await widthOf(page, "inspector");
  await page.getByRole("separator", { name: "Resize the inspector" }).focus();
  for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowLeft");
  await expect.poll(() => widthOf(page, "inspector")).toBeGreaterThan(before + 20);
  const widened = await widthOf(page, "inspector");

  // The run panel opens and grows the same way.
  await page.getByTestId("run-panel-toggle").click();
  await expect(page.getByTestId("run-panel")).toHaveAttribute("data-open", "true");
  const runBefore = (await page.getByTestId("run-panel").boundingBox())!.height;
  await page.getByRole("separator", { name: "Resize the run panel" }).focus();
  for (let step = 0; step < 3; step++) await page.keyboard.press("ArrowUp");
  await expect
    .poll(async () => (await page.getByTestId("run-panel").boundingBox())!.height)
    .toBeGreaterThan(runBefore + 20);
  const runGrown = (await page.getByTestId("run-panel").boundingBox())!.height;

  // After a reload both sizes are as they were left (this browser's localStorage).
  await editor.open(workflowId);
  await expect.poll(() => widthOf(page, "inspector")).toBeCloseTo(widened, -1);
  await page.getByTestId("run-panel-toggle").click();
  // The rows are kept as shares of the editor's height, which the production build lays out a few pixels
  // differently on a fresh load: the grown panel comes back grown, within a tenth of its height.
  const runHeight = async () => (await page.getByTestId("run-panel").boundingBox())!.height;
  await expect.poll(runHeight).toBeGreaterThan(runBefore + 10);
  expect(Math.abs((await runHeight()) - runGrown)).toBeLessThan(runGrown / 10);
});

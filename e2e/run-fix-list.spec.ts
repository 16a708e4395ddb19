import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

test.use({ viewport: { width: 1600, height: 900 } });

test("a fresh Router shows what it needs as a hint; Run waits behind a list of what to fix that leads to the field", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, { name: `Fix list ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  const run = new RunPage(page);
  await editor.open(workflowId);

  await editor.dragFromPalette("router", { x: 700, y: 180 });
  await expect(editor.block("Router")).toBeVisible();
  await editor.dragFromPalette("response", { x: 1050, y: 180 });
  await expect(editor.block("Response")).toBeVisible();
  await editor.connect("Start", "out", "Router");
  await editor.connect("Router", "out", "Response");
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);

  // A gentle hint in plain words, not a red error with schema paths.
  const routerId = await editor.blockId("Router");
  const hint = page.getByTestId(`block-hints-${routerId}`);
  await expect(hint).toHaveText("Write the routing instructions");
  await expect(page.getByTestId(`block-issues-${routerId}`)).toHaveCount(0);
  await expect(editor.block("Router")).not.toHaveClass(/border-red/);

  // Run is disabled; the list beside it says what is left.
  const runButton = page.getByTestId("run-button");
  await expect(runButton).toBeDisabled();
  await expect(page.getByTestId("test-run-button")).toBeDisabled();
  await expect(page.getByTestId("fix-list-button")).toHaveText(/1 to fix/);

  // Trying to run opens the list and turns the hint into a problem to fix. (Run is aria-disabled, so
  // it still takes a person's click; Playwright clicks only enabled elements unless forced.)
  await runButton.click({ force: true });
  await expect(page.getByTestId("run-form")).toHaveCount(0);
  const item = page.getByTestId("fix-list").getByTestId("fix-list-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Router");
  await expect(item).toContainText("Routing instructions");
  await expect(item).toContainText("Write the routing instructions");
  await expect(item).not.toContainText(/prompt|Invalid input/);
  await expect(page.getByTestId(`block-issues-${routerId}`)).toHaveText("Write the routing instructions");
  await expect(hint).toHaveCount(0);

  // The item leads to the block and its field.
  await item.click();
  await expect(page.getByTestId("fix-list")).toHaveCount(0);
  await expect(page.getByTestId("block-inspector")).toHaveAttribute("data-block-id", routerId);
  const prompt = editor.field("prompt");
  await expect(prompt).toBeFocused();
  await expect(page.getByTestId("field-issue-prompt")).toHaveText("Write the routing instructions");

  await prompt.fill("Send every message to the block that answers it");
  await expect(page.getByTestId(`block-issues-${routerId}`)).toHaveCount(0);
  await expect(page.getByTestId("fix-list-button")).toHaveCount(0);
  await expect(runButton).toBeEnabled();
  await editor.expectSaved();

  await run.startRun({ message: "Where is my parcel?" });
  await run.expectStatus("succeeded", 90_000);
  await expect(run.nodeStatus(routerId)).toContainText("succeeded");
});

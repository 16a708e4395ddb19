import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

test("two tabs editing one workflow: the second save gets the conflict, sees who won, and can overwrite", async ({
  browser,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Conflict ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "fn1", type: "function", name: "Compute", position: { x: 420, y: 160 }, config: { code: "return 1" } },
    ],
  });
  const context = await browser.newContext();
  const first = new EditorPage(await context.newPage());
  const second = new EditorPage(await context.newPage());
  await first.open(workflowId);
  await second.open(workflowId);

  await first.select("Compute");
  await first.field("code").fill("return 'first tab'");
  await first.expectSaved();

  await second.select("Compute");
  await second.field("code").fill("return 'second tab'");
  const dialog = second.page.getByTestId("conflict-dialog");
  await expect(dialog).toBeVisible();
  await expect(second.page.getByTestId("conflict-message")).toContainText("version 2");
  await expect(second.saveStatus).toHaveAttribute("data-status", "conflict");

  // Nothing was overwritten silently: the server still holds the first tab's code.
  const stored = await first.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "fn1")!.config!.code).toBe("return 'first tab'");

  await second.page.getByTestId("conflict-overwrite").click();
  await expect(dialog).not.toBeVisible();
  await second.expectSaved();
  const after = await first.storedWorkflow(workflowId);
  expect(after.version).toBe(3);
  expect(after.blocks.find((block) => block.id === "fn1")!.config!.code).toBe("return 'second tab'");
  await context.close();
});

test("reload after a conflict takes the other tab's version", async ({ browser, request }) => {
  const workflowId = await createWorkflow(request, { name: `Conflict reload ${Date.now()}`, blocks: [START_BLOCK] });
  const context = await browser.newContext();
  const first = new EditorPage(await context.newPage());
  const second = new EditorPage(await context.newPage());
  await first.open(workflowId);
  await second.open(workflowId);

  await first.page.getByTestId("workflow-name").fill("Name from tab one");
  await first.expectSaved();
  await second.page.getByTestId("workflow-name").fill("Name from tab two");
  await expect(second.page.getByTestId("conflict-dialog")).toBeVisible();
  await second.page.getByTestId("conflict-reload").click();
  await expect(second.page.getByTestId("workflow-name")).toHaveValue("Name from tab one");
  await expect(second.saveStatus).toHaveAttribute("data-status", "saved");
  await context.close();
});

test("leaving with changes that are not saved asks first", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Leave guard ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "agent1",
        type: "agent",
        name: "Writer",
        position: { x: 420, y: 160 },
        config: { model: "offline/echo", userPrompt: "<Start.message>" },
      },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Writer");
  // The server cannot be reached, so the change stays unsaved.
  await page.route(`**/api/workflows/${workflowId}`, (route) =>
    route.request().method() === "PUT" ? route.abort("connectionrefused") : route.fallback(),
  );
  await editor.field("userPrompt").fill("Shorter: <Start.message>");
  await expect(editor.saveStatus).toHaveAttribute("data-status", /unsaved|error/);
  const dialog = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const prompt = await dialog;
  expect(prompt.type()).toBe("beforeunload");
  // Choosing to stay keeps the page and the edit; an unanswered prompt would hang the teardown.
  await prompt.dismiss();
  expect(page.isClosed()).toBe(false);
  await expect(editor.field("userPrompt")).toHaveValue("Shorter: <Start.message>");
});

test("work the server could not store is kept in the browser and offered back after a reload", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Draft kept ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "agent1",
        type: "agent",
        name: "Writer",
        position: { x: 420, y: 160 },
        config: { model: "offline/echo", userPrompt: "<Start.message>" },
      },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Writer");
  // The server cannot be reached while these edits are made.
  await page.route(`**/api/workflows/${workflowId}`, (route) =>
    route.request().method() === "PUT" ? route.abort("connectionrefused") : route.fallback(),
  );
  await editor.field("systemPrompt").fill("Be brief.");
  await editor.field("userPrompt").fill("");
  await expect(editor.saveStatus).toHaveAttribute("data-status", "error");

  await page.unroute(`**/api/workflows/${workflowId}`);
  await page.reload();
  await expect(page.getByTestId("draft-banner")).toBeVisible();
  await page.getByTestId("draft-restore").click();
  await editor.select("Writer");
  await expect(editor.field("systemPrompt")).toHaveValue("Be brief.");
  // The restored draft's emptied prompt: what the field needs, by its label's words, never the schema key.
  await expect(page.getByTestId("block-hints-agent1")).toContainText("Write the prompt the model answers");
});

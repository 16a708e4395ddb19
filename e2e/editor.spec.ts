import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

test.use({ permissions: ["clipboard-read", "clipboard-write"], viewport: { width: 1600, height: 900 } });

test("build Start → Agent → Response by mouse, reference Start.message from the completion, and find it all after a reload", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, { name: `Built by mouse ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  await editor.dragFromPalette("agent", { x: 800, y: 200 });
  await expect(editor.block("Agent")).toBeVisible();
  await editor.dragFromPalette("response", { x: 800, y: 560 });
  await expect(editor.block("Response")).toBeVisible();

  await editor.connect("Start", "out", "Agent");
  await editor.connect("Agent", "out", "Response");
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);

  // The agent has no prompt yet: the node says what it needs, in plain words and as a hint, not an error.
  const agentId = await editor.blockId("Agent");
  await expect(page.getByTestId(`block-hints-${agentId}`)).toContainText("Write the prompt the model answers");
  await expect(page.getByTestId(`block-issues-${agentId}`)).toHaveCount(0);

  await editor.select("Agent");
  const prompt = editor.field("userPrompt");
  await prompt.click();
  await prompt.pressSequentially("Answer: <St");
  const option = page.getByTestId("completion-option").filter({ hasText: "<Start.message>" });
  await expect(option).toBeVisible();
  await option.click();
  await expect(prompt).toHaveValue("Answer: <Start.message>");
  await expect(page.getByTestId(`block-issues-${agentId}`)).toHaveCount(0);
  await expect(page.getByTestId(`block-hints-${agentId}`)).toHaveCount(0);
  await editor.expectSaved();

  await page.reload();
  await expect(editor.block("Agent")).toBeVisible();
  await expect(editor.block("Response")).toBeVisible();
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  await editor.select("Agent");
  await expect(editor.field("userPrompt")).toHaveValue("Answer: <Start.message>");

  const stored = await editor.storedWorkflow(workflowId);
  const agent = stored.blocks.find((block) => block.type === "agent")!;
  const response = stored.blocks.find((block) => block.type === "response")!;
  expect(stored.edges.map((edge) => [edge.source, edge.target])).toEqual(
    expect.arrayContaining([
      ["start", agent.id],
      [agent.id, response.id],
    ]),
  );
});

test("undo and redo a move and a deletion", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Undo ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "fn1", type: "function", name: "Compute", position: { x: 420, y: 160 }, config: { code: "return 1" } },
    ],
    edges: [{ id: "e1", source: "start", target: "fn1", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  const before = await editor.nodePosition("Compute");
  await editor.dragBlock("Compute", { x: 120, y: 90 });
  const moved = await editor.nodePosition("Compute");
  expect(moved.x - before.x).toBeGreaterThan(60);

  await editor.focusCanvas();
  await editor.press("Control+z");
  await expect.poll(() => editor.nodePosition("Compute")).toEqual(before);
  await editor.press("Control+Shift+z");
  await expect.poll(() => editor.nodePosition("Compute")).toEqual(moved);

  await editor.select("Compute");
  await editor.focusCanvas();
  await editor.block("Compute").locator('[data-testid^="block-name-"]').click();
  await editor.press("Delete");
  await expect(editor.block("Compute")).toHaveCount(0);
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);

  await editor.press("Control+z");
  await expect(editor.block("Compute")).toBeVisible();
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await editor.press("Control+Shift+z");
  await expect(editor.block("Compute")).toHaveCount(0);
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.map((block) => block.id)).toEqual(["start"]);
});

test("copy and paste a block within a workflow and into another one", async ({ page, request }) => {
  const agent = {
    id: "agent1",
    type: "agent",
    name: "Helper",
    position: { x: 420, y: 160 },
    config: { model: "offline/echo", userPrompt: "<Start.message>" },
  };
  const first = await createWorkflow(request, { name: `Copy from ${Date.now()}`, blocks: [START_BLOCK, agent] });
  const second = await createWorkflow(request, { name: `Paste into ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(first);

  await editor.select("Helper");
  await editor.press("Control+c");
  await editor.press("Control+v");
  await expect(editor.block("Helper 2")).toBeVisible();
  const pastedId = await editor.blockId("Helper 2");
  expect(pastedId).not.toBe("agent1");
  await editor.expectSaved();

  // The clipboard holds plain JSON, so it pastes into another workflow too.
  const text = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(text).blocks[0].name).toBe("Helper");
  await editor.open(second);
  await editor.focusCanvas();
  await editor.press("Control+v");
  await expect(editor.block("Helper")).toBeVisible();
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(second);
  expect(stored.blocks.map((block) => block.name)).toEqual(["Start", "Helper"]);
});

test("renaming a block points the references to it at the new name; pasted blocks refer to each other's copies", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Rename ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "agent1",
        type: "agent",
        name: "Writer",
        position: { x: 420, y: 160 },
        config: { model: "offline/echo", userPrompt: "<Start.message>" },
      },
      {
        id: "resp1",
        type: "response",
        name: "Reply",
        position: { x: 760, y: 160 },
        config: { data: { reply: "<Writer.content>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent1", sourceHandle: "out" },
      { id: "e2", source: "agent1", target: "resp1", sourceHandle: "out" },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Writer");
  await page.getByTestId("field-name").fill("Drafter");
  await editor.focusCanvas();
  await editor.select("Reply");
  await expect(editor.field("data")).toHaveText(/"<Drafter.content>"/);
  await expect(page.getByTestId("block-issues-resp1")).toHaveCount(0);
  await editor.expectSaved();
  let stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "resp1")!.config!.data).toEqual({ reply: "<Drafter.content>" });

  // Copy both and paste: the pasted Reply reads the pasted Drafter, not the original.
  await editor.select("Drafter");
  await editor
    .block("Reply")
    .locator('[data-testid^="block-name-"]')
    .click({ modifiers: ["Shift"] });
  await expect(page.locator(".react-flow__node.selected")).toHaveCount(2);
  await editor.press("Control+c");
  await editor.press("Control+v");
  await expect(editor.block("Reply 2")).toBeVisible();
  await editor.expectSaved();
  stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.name === "Reply 2")!.config!.data).toEqual({
    reply: "<Drafter 2.content>",
  });
});

test("the palette searches block types and the shortcuts dialog lists the keys", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, { name: `Palette ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await page.getByTestId("palette-search").fill("rout");
  await expect(page.getByTestId("palette-item-router")).toBeVisible();
  await expect(page.getByTestId("palette-item-agent")).toHaveCount(0);
  await page.getByTestId("show-shortcuts").click();
  await expect(page.getByTestId("shortcuts-dialog")).toContainText("Undo");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("shortcuts-dialog")).not.toBeVisible();
});

import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

test("a broken reference shows its error on the node and in the inspector", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Broken reference ${Date.now()}`,
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
    edges: [{ id: "e1", source: "start", target: "agent1", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  const badge = page.getByTestId("block-issues-agent1");
  await expect(badge).toHaveCount(0);

  await editor.select("Writer");
  const prompt = editor.field("userPrompt");
  await prompt.fill("Summarise <Researcher.content>");
  await expect(badge).toContainText("Researcher");
  await expect(page.getByTestId("field-issue-userPrompt")).toContainText("Researcher");

  await prompt.fill("Summarise <Start.message>");
  await expect(badge).toHaveCount(0);
});

test("an empty required field is a hint until it is touched, then a problem named by its label", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Untouched prompt ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "agent1", type: "agent", name: "Writer", position: { x: 420, y: 160 }, config: { model: "offline/echo" } },
    ],
    edges: [{ id: "e1", source: "start", target: "agent1", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await expect(page.getByTestId("block-hints-agent1")).toHaveText("Write the prompt the model answers");
  await expect(page.getByTestId("block-issues-agent1")).toHaveCount(0);

  await editor.select("Writer");
  await expect(page.getByTestId("field-hint-userPrompt")).toHaveText("Write the prompt the model answers");
  await expect(page.getByTestId("field-issue-userPrompt")).toHaveCount(0);

  // Entering the field and leaving it empty: now it is a problem, on the node and beside the field.
  await editor.field("userPrompt").click();
  await editor.field("systemPrompt").click();
  await expect(page.getByTestId("field-issue-userPrompt")).toHaveText("Write the prompt the model answers");
  await expect(page.getByTestId("field-hint-userPrompt")).toHaveCount(0);
  await expect(page.getByTestId("block-issues-agent1")).toHaveText("Write the prompt the model answers");
  await expect(page.getByTestId("block-issues-agent1")).not.toContainText("userPrompt");
});

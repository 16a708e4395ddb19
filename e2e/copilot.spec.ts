import { expect, test } from "@playwright/test";
import type { TestLlmServer } from "../providers/testing/test-llm-server";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { startScriptedLlm } from "./scripted-llm";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

let llm: TestLlmServer;
test.beforeAll(async () => {
  llm = await startScriptedLlm();
});
test.afterAll(() => llm?.close());

test("ask the copilot, see its proposal highlighted on the canvas, accept it, undo it", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, { name: `Copilot ${Date.now()}`, blocks: [START_BLOCK] });
  llm.enqueue(
    {
      kind: "tool-calls",
      calls: [
        {
          name: "add_block",
          arguments: {
            type: "agent",
            name: "Support Agent",
            id: "support",
            after: ["Start"],
            config: { model: "openai-compatible/gpt-4o-mini", userPrompt: "<start.message>" },
          },
        },
      ],
    },
    { kind: "text", text: "I added a support agent after the start block." },
  );
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await page.getByTestId("copilot-toggle").click();
  const panel = page.getByTestId("copilot-panel");
  await panel.getByTestId("copilot-model").fill("openai-compatible/gpt-4o-mini");
  await panel.getByTestId("copilot-message").fill("Answer the message with a support agent");
  await panel.getByTestId("copilot-ask").click();

  // The proposal is on the canvas, the new block highlighted; the draft is not changed yet.
  // Generous: under `next dev` the first request also compiles the route.
  await expect(panel.getByTestId("copilot-answer")).toContainText("I added a support agent", { timeout: 60_000 });
  await expect(panel.getByTestId("copilot-changes")).toContainText('Added agent block "Support Agent"');
  await expect(panel.getByTestId("copilot-usage")).toContainText("tokens");
  const added = page.locator(".react-flow__node.copilot-added");
  await expect(added).toHaveCount(1);
  await expect(added).toContainText("Support Agent");
  expect((await editor.storedWorkflow(workflowId)).blocks.map((block) => block.id)).toEqual(["start"]);

  // Accept: the draft takes it (and saves it), nothing highlighted any more.
  await panel.getByTestId("copilot-accept").click();
  await expect(page.locator(".react-flow__node.copilot-added")).toHaveCount(0);
  await expect(page.getByTestId("block-support")).toBeVisible();
  await editor.expectSaved();
  await expect
    .poll(async () => (await editor.storedWorkflow(workflowId)).blocks.map((block) => block.id))
    .toEqual(["start", "support"]);

  // One undo takes the whole proposal back.
  await page.getByTestId("undo").click();
  await expect(page.getByTestId("block-support")).toHaveCount(0);
  await editor.expectSaved();
  await expect
    .poll(async () => (await editor.storedWorkflow(workflowId)).blocks.map((block) => block.id))
    .toEqual(["start"]);
});

test('a failed run\'s "Why did this fail?" asks the copilot with the run, and shows its answer', async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Copilot failure ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "desk",
        type: "agent",
        name: "Desk Agent",
        position: { x: 420, y: 160 },
        config: { model: "openai-compatible/gpt-4o-mini", userPrompt: "<start.message>" },
      },
    ],
    edges: [{ id: "e1", source: "start", sourceHandle: "out", target: "desk" }],
  });
  llm.enqueue({ kind: "error", status: 400, message: "This model does not take the request" });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  const run = new RunPage(page);
  await run.startRun({ message: "My parcel arrived broken" });
  await run.expectStatus("failed");

  const sent = llm.requests.length;
  llm.enqueue({ kind: "text", text: "The Desk Agent's provider refused the request: check the model." });
  await page.getByTestId("explain-failure").click();
  const panel = page.getByTestId("copilot-panel");
  await expect(panel.getByTestId("copilot-run")).toBeVisible();
  await panel.getByTestId("copilot-model").fill("openai-compatible/gpt-4o-mini");
  await panel.getByTestId("copilot-ask").click();
  await expect(panel.getByTestId("copilot-answer")).toContainText("provider refused the request", { timeout: 60_000 });
  await expect(panel.getByTestId("copilot-accept")).toHaveCount(0);
  const system = llm.requests[sent]!.parsed.systemText;
  expect(system).toContain("This model does not take the request");
  expect(system).not.toContain("My parcel arrived broken");
});

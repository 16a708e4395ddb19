import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("a Workflow block runs the chosen workflow with an input from a reference, shows its output and links to its run", async ({
  page,
  request,
}) => {
  const childName = `Shouter ${Date.now()}`;
  const childId = await createWorkflow(request, {
    name: childName,
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 80, y: 160 },
        config: { inputs: [{ name: "text", type: "string", description: "What to shout" }] },
      },
      {
        id: "agent",
        type: "agent",
        name: "Agent",
        position: { x: 360, y: 160 },
        config: { model: "openai/gpt-4o-mini", userPrompt: "<start.text>" },
      },
      {
        id: "response",
        type: "response",
        name: "Response",
        position: { x: 640, y: 160 },
        config: { data: { answer: "<Agent.content>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "response" },
    ],
  });
  const parentId = await createWorkflow(request, { name: `Front desk ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(parentId);

  await editor.dragFromPalette("workflow", { x: 520, y: 200 });
  await editor.connect("Start", "out", "Workflow");
  await editor.select("Workflow");
  // The picker offers the workspace's other workflows, not the one being edited.
  await expect(editor.field("workflowId").locator("option", { hasText: "Front desk" })).toHaveCount(0);
  await editor.field("workflowId").selectOption({ label: childName });
  // Once chosen, one box per start input of the child, its description as help.
  const input = page.getByTestId("block-inspector").getByTestId("workflow-input-text");
  await expect(page.getByTestId("block-inspector")).toContainText("What to shout");
  await input.click();
  await input.pressSequentially("<Sta");
  await page.getByTestId("completion-option").filter({ hasText: "<Start.message>" }).click();
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(parentId);
  expect(stored.blocks.find((block) => block.type === "workflow")!.config).toMatchObject({
    workflowId: childId,
    inputs: { text: "<Start.message>" },
  });

  const run = new RunPage(page);
  await run.startRun({ message: "hello from the front desk" });
  await run.expectStatus("succeeded");
  const runId = await run.runId();
  const parentRun = await run.apiRun(runId);
  const blockSpan = parentRun.spans.find((span) => span.kind === "block" && span.blockType === "workflow")!;
  const childRunId = (blockSpan.output as { runId: string }).runId;
  // The child's tokens are the block's and the run's.
  const childRun = await run.apiRun(childRunId);
  expect(childRun.tokens.total).toBeGreaterThan(0);
  expect(parentRun.tokens.total).toBe(childRun.tokens.total);

  await page.getByTestId(`trace-row-${blockSpan.id}`).click();
  const details = page.getByTestId("span-details");
  await expect(details.getByTestId("span-output")).toContainText("Echo: hello from the front desk");
  const link = details.getByTestId("span-child-run-link");
  await expect(link).toHaveAttribute("href", `/workflows/${childId}/runs/${childRunId}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${childId}/runs/${childRunId}$`));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await page.getByTestId("run-tab-trace").click();
  await expect(page.getByTestId("trace-panel")).toHaveAttribute("data-run-id", childRunId);
});

import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

const dollars = (text: string | null) => Number((text ?? "").replace(/[^0-9.]/g, ""));

test("the Run form estimates the cost as the input is typed, and the agent node shows its estimate until a run shows real figures", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Estimate ${Date.now()}`,
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 80, y: 160 },
        config: { inputs: [{ name: "message", type: "string" }] },
      },
      {
        id: "writer",
        type: "agent",
        name: "Writer",
        position: { x: 380, y: 160 },
        config: { model: "openai/gpt-4o-mini", userPrompt: "Answer: <start.message>" },
      },
      {
        id: "reply",
        type: "response",
        name: "Reply",
        position: { x: 680, y: 160 },
        config: { data: "<Writer.content>" },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "writer" },
      { id: "e2", source: "writer", target: "reply" },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  // Before running: a ghost badge on the agent, none on blocks that call no model.
  await expect(page.getByTestId("block-estimate-writer")).toContainText(/~\$0\.\d+ estimated/);
  await expect(page.getByTestId("block-estimate-reply")).toHaveCount(0);

  await page.getByTestId("run-button").click();
  const expected = page.getByTestId("run-estimate-expected");
  await expect(expected).toHaveText(/~\$0\.\d+/);
  await expect(page.getByTestId("run-estimate-range")).toContainText("low");
  await page.getByTestId("run-input-message").fill("Hi");
  await expect(page.getByTestId("run-estimate")).not.toContainText("updating");
  const short = dollars(await expected.textContent());
  // A long message makes a longer prompt: the estimate follows the typing.
  await page
    .getByTestId("run-input-message")
    .fill("Please explain, in detail, everything about shipping. ".repeat(300));
  await expect.poll(async () => dollars(await expected.textContent())).toBeGreaterThan(short);

  await page.getByTestId("run-input-message").fill("Hello there");
  await page.getByTestId("run-submit").click();
  const run = new RunPage(page);
  await run.expectStatus("succeeded");
  // The run's real figures replace the estimate on the node.
  await expect(page.getByTestId("block-run-cost-writer")).toBeVisible();
  await expect(page.getByTestId("block-estimate-writer")).toHaveCount(0);
});

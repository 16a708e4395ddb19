import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });

test("an agent's tool-outcome handle connects, and an edge's condition is set in the inspector and drawn on the edge", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Tool reroute ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "calc",
        type: "agent",
        name: "Calc",
        position: { x: 380, y: 160 },
        config: { model: "offline/echo", userPrompt: "<Start.message>", tools: ["calculator"] },
      },
      { id: "done", type: "response", name: "Done", position: { x: 760, y: 120 }, config: { data: "<Calc.content>" } },
      { id: "sorry", type: "response", name: "Sorry", position: { x: 760, y: 360 }, config: { data: "no" } },
    ],
    edges: [
      { id: "e_start", source: "start", target: "calc", sourceHandle: "out" },
      { id: "e_done", source: "calc", target: "done", sourceHandle: "out" },
    ],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  // Routing on the tool's outcomes is switched on in the inspector: the block gains a success and an error handle.
  await expect(page.getByTestId("handle-calc-tool:calculator:success")).toHaveCount(0);
  await editor.select("Calc");
  await page.getByTestId("tool-route-outcome-0").getByRole("checkbox").check();
  await expect(page.getByTestId("handle-calc-tool:calculator:success")).toBeVisible();
  await editor.expectSaved();
  expect((await editor.storedWorkflow(workflowId)).blocks.find((block) => block.id === "calc")!.config!.tools).toEqual([
    { type: "calculator", routeOnOutcome: true },
  ]);
  await editor.connect("Calc", "tool:calculator:error", "Sorry");
  await editor.expectSaved();
  expect((await editor.storedWorkflow(workflowId)).edges).toContainEqual(
    expect.objectContaining({ source: "calc", target: "sorry", sourceHandle: "tool:calculator:error" }),
  );

  await page.getByTestId("rf__edge-e_done").locator(".react-flow__edge-interaction").click();
  const inspector = page.getByTestId("edge-inspector");
  await expect(inspector.getByTestId("edge-inspector-route")).toHaveText("Calc → Done");
  const condition = inspector.getByTestId("edge-condition");
  await condition.fill("output.toolCalls.count >");
  await expect(inspector.getByTestId("edge-issues")).toContainText("The condition does not parse");

  await condition.fill("output.toolCalls.count > 0");
  await expect(inspector.getByTestId("edge-issues")).toHaveCount(0);
  await expect(page.getByTestId("edge-condition-label-e_done")).toHaveText("if output.toolCalls.count > 0");
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.edges).toContainEqual(
    expect.objectContaining({ id: "e_done", condition: "output.toolCalls.count > 0" }),
  );

  // Reloaded, the label is drawn from the stored document.
  await page.reload();
  await expect(page.getByTestId("edge-condition-label-e_done")).toHaveText("if output.toolCalls.count > 0");
});

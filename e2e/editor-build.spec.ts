import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 900 } });

/** Renames the selected block through the inspector. */
async function rename(editor: EditorPage, from: string, to: string) {
  await editor.select(from);
  await editor.page.getByTestId("block-inspector").getByTestId("field-name").fill(to);
  await expect(editor.block(to)).toBeVisible();
}

/** Types into a prompt field and picks a reference from the `<` completion. */
async function pickReference(editor: EditorPage, key: string, typed: string, reference: string) {
  const field = editor.field(key);
  await field.click();
  await field.pressSequentially(typed);
  await editor.completionOption(`<${reference}>`).click();
}

test("the support-routing example is built by mouse alone with one Response that merges the branches, saved and run", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Support routing by mouse ${Date.now()}`,
    blocks: [START_BLOCK],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  await editor.dragFromPalette("router", { x: 500, y: 200 });
  await editor.dragFromPalette("agent", { x: 800, y: 110 });
  await rename(editor, "Agent", "Sales Agent");
  await editor.dragFromPalette("agent", { x: 800, y: 560 });
  await rename(editor, "Agent", "Support Agent");
  await editor.dragFromPalette("response", { x: 940, y: 420 });

  await editor.connect("Start", "out", "Router");
  await editor.connect("Router", "out", "Sales Agent");
  await editor.connect("Router", "out", "Support Agent");
  await editor.connect("Sales Agent", "out", "Response");
  await editor.connect("Support Agent", "out", "Response");
  await expect(page.locator(".react-flow__edge")).toHaveCount(5);

  await editor.select("Router");
  await pickReference(editor, "prompt", "Route this message: <Sta", "Start.message");
  await editor.select("Sales Agent");
  await pickReference(editor, "userPrompt", "<Sta", "Start.message");
  await editor.select("Support Agent");
  await pickReference(editor, "userPrompt", "<Sta", "Start.message");
  // One Response reads whichever agent ran: the first alternative from `<`, the second from `??`.
  await editor.select("Response");
  await pickReference(editor, "data", "<Sales", "Sales Agent.content");
  // Back inside the closing `>`, then `??` completes the second alternative and closes the reference.
  await editor.field("data").press("ArrowLeft");
  await editor.field("data").pressSequentially(" ?? Sup");
  await editor.completionOption("<Support Agent.content>").click();
  // Data is JSON or text, in a code editor: its text is the editable area's content.
  await expect(editor.field("data")).toHaveText("<Sales Agent.content ?? Support Agent.content>");

  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  const byName = new Map(stored.blocks.map((block) => [block.name, block]));
  expect([...byName.keys()].sort()).toEqual(["Response", "Router", "Sales Agent", "Start", "Support Agent"]);
  expect(byName.get("Router")!.config!.prompt).toBe("Route this message: <Start.message>");
  expect(byName.get("Response")!.config!.data).toBe("<Sales Agent.content ?? Support Agent.content>");
  const id = (name: string) => byName.get(name)!.id;
  expect(stored.edges.map((edge) => `${edge.source}->${edge.target}`).sort()).toEqual(
    [
      `start->${id("Router")}`,
      `${id("Router")}->${id("Sales Agent")}`,
      `${id("Router")}->${id("Support Agent")}`,
      `${id("Sales Agent")}->${id("Response")}`,
      `${id("Support Agent")}->${id("Response")}`,
    ].sort(),
  );
  await expect(page.getByTestId("block-inspector").getByTestId("field-issue-data")).toHaveCount(0);

  // Run it once per branch: the one Response answers with the agent that ran (the offline model echoes).
  const run = new RunPage(page);
  for (const [message, ran, skipped] of [
    ["A sales question: what does the Pro plan cost?", "Sales Agent", "Support Agent"],
    ["I need support: my parcel arrived broken", "Support Agent", "Sales Agent"],
  ] as const) {
    await run.startRun({ message });
    await run.expectStatus("succeeded");
    await expect(run.nodeStatus(id(skipped))).toHaveText("skipped");
    await expect(run.nodeStatus(id(ran))).toContainText("succeeded");
    const stored = await run.apiRun(await run.runId());
    expect(stored.output).toBe(`Echo: ${message}\n\n[offline model, not a language model]`);
    const responseSpan = stored.spans.find((span) => span.kind === "block" && span.blockId === id("Response"))!;
    await page.getByTestId(`trace-row-${responseSpan.id}`).click();
    await expect(page.getByTestId("span-details").getByTestId("span-output")).toContainText(`Echo: ${message}`);
  }
});

test("a block dropped into a loop becomes its child and the loop's body handle connects to it", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, { name: `Loop by mouse ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  await editor.dragFromPalette("loop", { x: 760, y: 420 });
  await expect(editor.block("Loop 1")).toBeVisible();
  await editor.dragFromPalette("function", { x: 820, y: 460 });
  const functionId = await editor.blockId("Function");
  const loopId = await editor.blockId("Loop 1");
  await editor.connect("Start", "out", "Loop 1");
  await editor.connect("Loop 1", "body", "Function");
  await editor.select("Function");
  await editor.field("code").fill("return 1");
  await editor.expectSaved();

  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === functionId)!.parentId).toBe(loopId);
  expect(stored.edges).toEqual(
    expect.arrayContaining([expect.objectContaining({ source: loopId, target: functionId, sourceHandle: "body" })]),
  );

  // Auto layout keeps the child inside its loop (the layout and the fit animation take a moment).
  await page.getByTestId("auto-layout").click();
  const childInsideLoop = async () => {
    const loopBox = (await editor.block("Loop 1").boundingBox())!;
    const childBox = (await editor.block("Function").boundingBox())!;
    return (
      childBox.x > loopBox.x && childBox.x + childBox.width <= loopBox.x + loopBox.width + 1 && childBox.y > loopBox.y
    );
  };
  await expect.poll(childInsideLoop).toBe(true);
  await expect(editor.saveStatus).toHaveAttribute("data-status", "saved");
  const laidOut = await editor.storedWorkflow(workflowId);
  expect(laidOut.blocks.find((block) => block.id === functionId)!.parentId).toBe(loopId);
});

test("a container dropped into a loop nests inside it, and the loop grows to hold it", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, { name: `Nested by mouse ${Date.now()}`, blocks: [START_BLOCK] });
  const editor = new EditorPage(page);
  await editor.open(workflowId);

  await editor.dragFromPalette("loop", { x: 560, y: 260 });
  await expect(editor.block("Loop 1")).toBeVisible();
  const canvasBox = (await editor.canvas.boundingBox())!;
  const loopBox = (await editor.block("Loop 1").boundingBox())!;
  // Drop the parallel well inside the loop's frame, near its right edge, so it overflows at first.
  await editor.dragFromPalette("parallel", {
    x: loopBox.x - canvasBox.x + loopBox.width - 100,
    y: loopBox.y - canvasBox.y + 110,
  });
  await expect(editor.block("Parallel 1")).toBeVisible();
  await editor.connect("Loop 1", "body", "Parallel 1");
  await editor.expectSaved();

  const stored = await editor.storedWorkflow(workflowId);
  const loop = stored.blocks.find((block) => block.name === "Loop 1")! as (typeof stored.blocks)[number] & {
    size: { width: number; height: number };
  };
  const parallel = stored.blocks.find((block) => block.name === "Parallel 1")! as typeof loop;
  expect(parallel.parentId).toBe(loop.id);
  expect(loop.size.width).toBeGreaterThanOrEqual(parallel.position.x + parallel.size.width);
  expect(loop.size.height).toBeGreaterThanOrEqual(parallel.position.y + parallel.size.height);
  expect(stored.edges).toEqual(
    expect.arrayContaining([expect.objectContaining({ source: loop.id, target: parallel.id, sourceHandle: "body" })]),
  );

  // On screen the parallel sits inside the loop's frame.
  const outer = (await editor.block("Loop 1").boundingBox())!;
  const inner = (await editor.block("Parallel 1").boundingBox())!;
  expect(inner.x).toBeGreaterThan(outer.x);
  expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width + 1);
  expect(inner.y + inner.height).toBeLessThanOrEqual(outer.y + outer.height + 1);
});

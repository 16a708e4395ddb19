import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { VariablesPanel } from "./pages/variables-panel";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 900 } });

const DONE = { id: "done", type: "response", name: "Done", position: { x: 700, y: 160 }, config: {} };

test("typed variables added in the Variables panel are saved, come back after a reload, and a run reads them", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Variables ${Date.now()}`,
    blocks: [START_BLOCK, DONE],
    edges: [{ id: "e1", source: "start", target: "done" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.focusCanvas();
  const variables = new VariablesPanel(page);
  await variables.add("greeting", "Text", "hello");
  await variables.add("times", "Number", "3");
  // A name <variable.…> could not read is refused in place and not stored.
  await variables.add("bad-name", "Text", "x");
  await expect(variables.row(2)).toContainText("Use a letter or _ first, then letters, digits or _");
  await variables.row(2).getByLabel("Remove variable var3").click();
  await editor.expectSaved();

  await page.reload();
  await expect(page.getByTestId("editor")).toBeVisible();
  await variables.expectVariable("greeting", "Text", "hello");
  await variables.expectVariable("times", "Number", "3");
  await expect(variables.panel.getByTestId("variable-row")).toHaveCount(2);
  const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    variables: Record<string, unknown>;
  };
  expect(stored.variables).toEqual({ greeting: "hello", times: 3 });

  await editor.select("Done");
  await editor.field("data").fill('{"said": "<variable.greeting>", "times": "<variable.times>"}');
  await editor.expectSaved();
  const run = new RunPage(page);
  await run.startRun({ message: "hi" });
  await run.expectStatus("succeeded");
  expect((await run.apiRun(await run.runId())).output).toEqual({ said: "hello", times: 3 });
});

test("a Set Variables block added by mouse changes what the block after it reads", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: `Set variables ${Date.now()}`,
    blocks: [START_BLOCK, DONE],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.focusCanvas();
  await new VariablesPanel(page).add("count", "Number", "1");

  await editor.dragFromPalette("variables", { x: 420, y: 200 });
  await expect(editor.block("Set Variables")).toBeVisible();
  await editor.connect("Start", "out", "Set Variables");
  await editor.connect("Set Variables", "out", "Done");
  await editor.select("Set Variables");
  await editor.field("assignments").getByTestId("field-assignments-add").click();
  const row = editor.field("assignments").getByTestId("field-assignments-row").first();
  await row.getByLabel("Assignment 1 name").fill("count");
  await row.getByLabel("Assignment 1 kind").selectOption("expression");
  await row.getByLabel("Assignment 1 expression").fill("<variable.count> + 41");
  await editor.select("Done");
  await editor.field("data").fill("<variable.count>");
  await editor.expectSaved();

  const run = new RunPage(page);
  await run.startRun({ message: "hi" });
  await run.expectStatus("succeeded");
  expect((await run.apiRun(await run.runId())).output).toBe(42);
});

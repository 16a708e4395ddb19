import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`; Pyodide loads cold on the first run.
test.describe.configure({ timeout: 240_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("a Function block switched to Python highlights and completes Python, runs, and shows its output", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Python block ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "fn", type: "function", name: "Count Words", position: { x: 420, y: 160 }, config: { code: "return 1;" } },
    ],
    edges: [{ id: "e1", source: "start", target: "fn", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Count Words");

  await editor.field("language").selectOption("python");
  const code = editor.field("code");
  await code.fill("");
  await code.pressSequentially("words = <sta");
  const reference = editor.completionOption("<Start.message>");
  await expect(reference).toBeVisible();
  await reference.click();
  await expect(code).toHaveText("words = <Start.message>");
  await code.press("End");
  await code.press("Enter");
  // Python's own completion: builtins and names the code defined. Each is taken by a click: Enter within
  // CodeMirror's interaction delay after the list updates is a newline, which a loaded machine hits.
  await code.pressSequentially("prin");
  await editor.completionOption("print").click();
  await expect(code).toHaveText("words = <Start.message>print");
  await code.pressSequentially('("counting", wor');
  await editor.completionOption("words").click();
  await expect(code).toHaveText('words = <Start.message>print("counting", words)');
  await code.press("End");
  await code.press("Enter");
  await code.pressSequentially('return {"count": len(words.split()), "upper": words.upper()');
  await code.press("End");

  await expect(code.locator(".tok-keyword", { hasText: "return" })).toBeVisible();
  await expect(code.locator(".cm-reference")).toHaveText("<Start.message>");
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  const config = stored.blocks.find((block) => block.id === "fn")!.config!;
  expect(config.language).toBe("python");
  expect(config.code).toBe(
    'words = <Start.message>\nprint("counting", words)\nreturn {"count": len(words.split()), "upper": words.upper()}',
  );

  const run = new RunPage(page);
  await run.startRun({ message: "hello python world" });
  await run.expectStatus("succeeded", 120_000);
  const apiRun = await run.apiRun(await run.runId());
  const span = apiRun.spans.find((entry) => entry.kind === "block" && entry.blockId === "fn")!;
  expect(span.output).toMatchObject({
    result: { count: 3, upper: "HELLO PYTHON WORLD" },
    stdout: "counting hello python world\n",
  });
  await page.getByTestId(`trace-row-${span.id}`).click();
  const output = page.getByTestId("span-details").getByTestId("span-output");
  await expect(output).toContainText('"upper": "HELLO PYTHON WORLD"');
  await expect(output).toContainText("counting hello python world");
});

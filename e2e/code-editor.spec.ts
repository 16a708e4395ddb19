import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 900 } });

test("a Function block's code is JavaScript with `<` completing upstream references, both highlighted", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `Code editor ${Date.now()}`,
    blocks: [
      START_BLOCK,
      { id: "fn", type: "function", name: "Shout", position: { x: 420, y: 160 }, config: { code: "return 1;" } },
    ],
    edges: [{ id: "e1", source: "start", target: "fn", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Shout");

  const code = editor.field("code");
  await code.fill("");
  await code.pressSequentially("const text = <sta");
  // The list offers the upstream block's outputs, matched ignoring case; picking one writes the whole reference.
  const option = editor.completionOption("<Start.message>");
  await expect(option).toBeVisible();
  await option.click();
  await expect(code).toHaveText("const text = <Start.message>");
  await code.press("End");
  await code.pressSequentially(";");

  // JavaScript tokens and the reference carry highlight classes, painted in the theme's colours.
  const keyword = code.locator(".tok-keyword", { hasText: "const" });
  await expect(keyword).toBeVisible();
  await expect(keyword).toHaveCSS("color", "rgb(124, 58, 237)");
  await expect(code.locator(".cm-reference")).toHaveText("<Start.message>");
  // The page's scheme is the `dark` class on <html>: the editor repaints with it, and back.
  const surface = page.getByTestId("block-inspector").locator(".cm-editor");
  await expect(surface).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await expect(surface).toHaveCSS("background-color", "rgb(15, 23, 42)");
  await expect(keyword).toHaveCSS("color", "rgb(196, 181, 253)");
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await expect(keyword).toHaveCSS("color", "rgb(124, 58, 237)");

  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "fn")!.config!.code).toBe("const text = <Start.message>;");
});

test("a JSON field names its syntax problem with the line as it is typed, and a valid value saves and survives a reload", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `JSON editor ${Date.now()}`,
    blocks: [START_BLOCK, { id: "reply", type: "response", name: "Reply", position: { x: 420, y: 160 }, config: {} }],
    edges: [{ id: "e1", source: "start", target: "reply", sourceHandle: "out" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Reply");

  const data = editor.field("data");
  await data.fill('{\n  "reply": "<Start.message>"\n  "length": 3\n}');
  const problem = page.getByTestId("field-data-problem");
  await expect(problem).toHaveText("Line 3, column 3: Expected ',' or '}' after property value");
  await expect(page.locator(".cm-lint-marker-error")).toBeVisible();

  await data.fill('{\n  "reply": "<Start.message>",\n  "length": 3\n}');
  await expect(problem).toHaveCount(0);
  await expect(data.locator(".tok-propertyName").first()).toHaveText('"reply"');
  await editor.expectSaved();

  await page.reload();
  await expect(page.getByTestId("editor")).toBeVisible();
  await editor.select("Reply");
  await expect(editor.field("data")).toHaveText(/"reply": "<Start.message>",\s*"length": 3/);
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "reply")!.config!.data).toEqual({
    reply: "<Start.message>",
    length: 3,
  });
});

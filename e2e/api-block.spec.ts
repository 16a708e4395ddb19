import { expect, test } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 900 } });

const CALL = {
  id: "call",
  type: "api",
  name: "Call",
  position: { x: 420, y: 160 },
  config: { url: "https://api.example.com/items", method: "POST", body: { name: "widget" } },
};

test("the API block's inspector edits query parameters and form fields as rows, and the body type picks the body editor", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: `API rows ${Date.now()}`,
    blocks: [START_BLOCK, CALL],
    edges: [{ id: "e1", source: "start", target: "call" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Call");

  // A document from before body types: its JSON body is shown in the JSON editor.
  await expect(editor.field("body")).toBeVisible();
  await expect(editor.field("bodyType")).toHaveValue("");

  await editor.field("query").getByTestId("field-query-add").click();
  const queryRow = editor.field("query").getByTestId("field-query-row").first();
  await queryRow.getByLabel("Key").fill("q");
  await queryRow.getByLabel("Value").fill("<start.message>");

  await editor.field("bodyType").selectOption("form");
  // The same body, now as form rows: the JSON object's field is one row.
  const formRows = page.getByTestId("block-inspector").getByTestId("field-body-row");
  await expect(formRows).toHaveCount(1);
  await expect(formRows.first().getByLabel("Key")).toHaveValue("name");
  await page.getByTestId("block-inspector").getByTestId("field-body-add").click();
  await expect(formRows).toHaveCount(2);
  await formRows.nth(1).getByLabel("Key").fill("email");
  await formRows.nth(1).getByLabel("Value").fill("ada@example.com");
  await editor.expectSaved();

  const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    blocks: Array<{ id: string; config: Record<string, unknown> }>;
  };
  expect(stored.blocks.find((block) => block.id === "call")?.config).toMatchObject({
    bodyType: "form",
    query: { q: "<start.message>" },
    body: { name: "widget", email: "ada@example.com" },
  });
});

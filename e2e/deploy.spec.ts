import { expect, test, type APIRequestContext } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1500, height: 950 } });

const reply = (prefix: string): TestBlock => ({
  id: "reply",
  type: "response",
  name: "Reply",
  position: { x: 420, y: 160 },
  config: { data: { answer: `${prefix}: <start.message>` } },
});

const document = (prefix: string) => ({
  name: "Deployed greeter",
  blocks: [START_BLOCK, reply(prefix)],
  edges: [{ id: "start-reply", source: "start", target: "reply" }],
});

/** Saves a new draft through the API, as another editor's save would. */
async function saveDraft(request: APIRequestContext, workflowId: string, prefix: string) {
  const { version } = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { version: number };
  const saved = await request.put(`/api/workflows/${workflowId}`, { data: { ...document(prefix), version } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** What a program calling the deployed workflow gets back. */
async function execute(request: APIRequestContext, workflowId: string): Promise<{ status: number; answer?: string }> {
  const response = await request.post(`/api/workflows/${workflowId}/execute`, {
    data: { input: { message: "hi" }, wait: true },
  });
  const body = (await response.json()) as { output?: { answer?: string } };
  return { status: response.status(), answer: body.output?.answer };
}

test("deploy, change the draft, see the deployment still answer the old way, deploy again and roll back", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, document("v1"));
  expect((await execute(request, workflowId)).status).toBe(409);

  const editor = new EditorPage(page);
  await editor.open(workflowId);
  const status = page.getByTestId("deploy-status");
  await expect(status).toHaveText("Not deployed");

  await page.getByTestId("deploy-open").click();
  const drawer = page.getByTestId("deploy-drawer");
  await drawer.getByTestId("deploy-tab-api").click();
  await expect(drawer.getByTestId("api-not-deployed")).toBeVisible();
  await drawer.getByTestId("deploy-tab-deployments").click();
  await drawer.getByTestId("deploy-note").fill("first release");
  await drawer.getByTestId("deploy-submit").click();
  const rows = drawer.getByTestId("deployment-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("first release");
  await expect(rows.first()).toHaveAttribute("data-active", "true");
  await expect(status).toHaveText("Deployed v1");

  // The API tab: the endpoint, a curl call and the input as JSON Schema.
  await drawer.getByTestId("deploy-tab-api").click();
  await expect(drawer.getByTestId("api-endpoint")).toContainText(`/api/workflows/${workflowId}/execute`);
  await expect(drawer.getByTestId("api-curl")).toContainText("Authorization: Bearer $TRELLIS_API_KEY");
  await expect(drawer.getByTestId("api-curl")).toContainText('"wait":true');
  await expect(drawer.getByTestId("api-input-schema")).toContainText('"required": [\n    "message"');
  await drawer.getByTestId("deploy-close").click();
  expect(await execute(request, workflowId)).toEqual({ status: 200, answer: "v1: hi" });

  // Another save changes the draft: the deployment answers as before, and the editor says the draft differs.
  await saveDraft(request, workflowId, "v2");
  await editor.open(workflowId);
  await expect(page.getByTestId("draft-differs")).toBeVisible();
  expect(await execute(request, workflowId)).toEqual({ status: 200, answer: "v1: hi" });
  await page.getByTestId("deploy-open").click();
  await expect(drawer.getByTestId("draft-diff")).toContainText("Reply: config.data");
  await drawer.getByTestId("deploy-note").fill("new greeting");
  await drawer.getByTestId("deploy-submit").click();
  await expect(rows).toHaveCount(2);
  await expect(status).toHaveText("Deployed v2");
  await expect(page.getByTestId("draft-differs")).toHaveCount(0);
  expect(await execute(request, workflowId)).toEqual({ status: 200, answer: "v2: hi" });

  // Roll back to v1.
  const first = drawer.locator('[data-testid="deployment-row"][data-number="1"]');
  await first.getByTestId("deployment-activate").click();
  await expect(first).toHaveAttribute("data-active", "true");
  await expect(status).toHaveText("Deployed v1");
  expect(await execute(request, workflowId)).toEqual({ status: 200, answer: "v1: hi" });
});

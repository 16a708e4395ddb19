import { expect, test } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";
import { AskForm, importAskApproval } from "./pages/ask-form";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("a run pauses at an ask, the answer given in the run panel sends it down the chosen branch", async ({
  page,
  request,
}) => {
  const workflowId = await importAskApproval(request);
  await new EditorPage(page).open(workflowId);
  const run = new RunPage(page);
  await run.startRun({ request: "Deploy billing to eu-west" });

  await run.expectStatus("paused");
  const form = AskForm.inConsole(page);
  await expect(form.question).toContainText("I found this plan:");
  await expect(form.question).toContainText("Deploy billing to eu-west");
  // The same question waits on the node, with its choices.
  const onNode = AskForm.onNode(page, "approve");
  await expect(onNode.question).toContainText("Proceed with it, keep searching, or abort?");
  await expect(onNode.root.getByTestId("ask-choice-abort")).toBeVisible();

  await form.choose("choose_plan", "After 18:00 please");
  await run.expectStatus("succeeded");
  await expect(form.answer).toContainText('Answered "Use this plan": After 18:00 please by');
  await expect(run.nodeStatus("deploy")).toContainText("succeeded");
  await expect(run.nodeStatus("cancel")).toHaveText("skipped");
  await expect(run.nodeStatus("search_again")).toHaveText("skipped");
  await expect(run.edge("e_approve_deploy")).toHaveCount(1);
  await expect(run.edge("e_approve_cancel")).toHaveCount(0);
  // The form has left the node once answered.
  await expect(page.getByTestId("block-approve").locator('[data-testid^="node-ask-"]')).toHaveCount(0);

  const stored = await run.apiRun(await run.runId());
  expect(stored.output).toMatchObject({ action: "deploy", note: "After 18:00 please" });
});

test("a deployed workflow's chat shows the question its reply waits on, and the visitor's choice sends the reply down that branch", async ({
  browser,
  baseURL,
  request,
}) => {
  const workflowId = await importAskApproval(request);
  expect((await request.post(`/api/workflows/${workflowId}/deployments`, { data: { note: "ask" } })).status()).toBe(
    201,
  );
  const chat = await request.post(`/api/workflows/${workflowId}/chat`, {
    data: { enabled: true, title: "Deploy desk" },
  });
  expect(chat.status(), await chat.text()).toBe(200);
  const { url } = (await chat.json()) as { url: string };

  const visitorContext = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const visitor = await visitorContext.newPage();
  await visitor.goto(url);
  await expect(visitor.getByTestId("chat-title")).toHaveText("Deploy desk", { timeout: 60_000 });
  await visitor.getByTestId("chat-input").fill("Deploy search to us-east");
  await visitor.getByTestId("chat-send").click();

  const ask = visitor.getByTestId("chat-ask");
  await expect(ask).toContainText("I found this plan:", { timeout: 60_000 });
  await expect(ask).toContainText("Proceed with it, keep searching, or abort?");
  await ask.getByTestId("chat-ask-choice-abort").click();
  await expect(ask).toHaveCount(0);
  const reply = visitor.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 60_000 });
  await expect(reply).toContainText("abort");
  await visitorContext.close();
});

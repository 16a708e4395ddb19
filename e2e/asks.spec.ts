import { expect, test } from "@playwright/test";
import { EditorPage } from "./pages/editor-page";
import { AskForm, importAskApproval } from "./pages/ask-form";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("a run pauses at an ask, the answer given in the run panel sends it down the chosen branch", async ({ page, request }) => {
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

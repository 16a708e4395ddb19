import { expect, test, type APIRequestContext } from "@playwright/test";
import type { ApiRun, WorkflowDocumentInput } from "@/contract";
import { runHref } from "../components/ui/run-href";
import { RunPage } from "./pages/run-page";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

const MODEL = "openai/gpt-4o-mini";

/** Start -> Facts and Style side by side -> Answer, which shows only the style: a changed Facts prompt changes Facts alone. */
function document(factsPrompt: string): WorkflowDocumentInput {
  return {
    name: `Compared ${Date.now()}`,
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        config: { inputs: [{ name: "topic", type: "string" }] },
      },
      {
        id: "facts",
        type: "agent",
        name: "Facts",
        position: { x: 300, y: -120 },
        config: { model: MODEL, userPrompt: factsPrompt },
      },
      {
        id: "style",
        type: "agent",
        name: "Style",
        position: { x: 300, y: 120 },
        config: { model: MODEL, userPrompt: "A style for <start.topic>" },
      },
      {
        id: "answer",
        type: "response",
        name: "Answer",
        position: { x: 600, y: 0 },
        config: { data: { style: "<style.content>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "facts" },
      { id: "e2", source: "start", target: "style" },
      { id: "e3", source: "facts", target: "answer" },
      { id: "e4", source: "style", target: "answer" },
    ],
  };
}

async function finishedRun(request: APIRequestContext, workflowId: string): Promise<ApiRun> {
  const response = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input: { topic: "tea" }, wait: true },
    timeout: 120_000,
  });
  expect(response.ok(), await response.text()).toBe(true);
  const run = (await response.json()) as ApiRun;
  expect(run.status).toBe("succeeded");
  return run;
}

test("two runs that differ in one prompt compare to exactly that block, and a replay costs $0", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/workflows", { data: document("Facts about <start.topic>") });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = ((await created.json()) as { id: string }).id;
  const first = await finishedRun(request, workflowId);
  const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { version: number };
  const saved = await request.put(`/api/workflows/${workflowId}`, {
    data: { ...document("Three facts about <start.topic>"), version: stored.version },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const second = await finishedRun(request, workflowId);
  expect(second.cost?.total).toBeGreaterThan(0);

  await page.goto(runHref(workflowId, second.id));
  await expect(page.getByTestId("editor")).toBeVisible();
  const run = new RunPage(page);
  await run.expectStatus("succeeded");

  // Replay: the editor follows the new run, marked as a replay of the second run, and it cost nothing.
  await page.getByTestId("run-replay").click();
  await expect(page.getByTestId("run-replay-of")).toContainText("Replay");
  await expect(page.getByTestId("run-replay-of-link")).toHaveText(`run ${second.id.slice(-8)}`);
  await run.expectStatus("succeeded");
  const replayId = await run.runId();
  expect(replayId).not.toBe(second.id);
  const replay = await run.apiRun(replayId);
  expect(replay).toMatchObject({ replayOf: second.id, trigger: { kind: "replay" }, cost: { total: 0 } });
  expect(replay.output).toEqual(second.output);
  await expect(run.nodeText("facts")).toHaveText("Echo: Three facts about tea");

  await page.getByTestId("run-tab-history").click();
  const replayRow = page.locator(`[data-testid="history-row"][data-run-id="${replayId}"]`);
  await expect(replayRow.getByTestId("history-trigger")).toContainText("replay");
  await expect(replayRow.getByTestId("history-cost")).toHaveText("$0.00");

  // Compare the two real runs: only Facts differs, and it comes first with its text diff.
  await page.locator(`[data-testid="history-row"][data-run-id="${first.id}"]`).getByTestId("history-select").check();
  await page.locator(`[data-testid="history-row"][data-run-id="${second.id}"]`).getByTestId("history-select").check();
  await page.getByTestId("history-compare").click();
  const rows = page.getByTestId("diff-row");
  await expect(page.getByTestId("run-diff-summary")).toContainText("1 block differ");
  await expect(rows.first()).toHaveAttribute("data-block-id", "facts");
  await expect(rows.first()).toHaveAttribute("data-change", "changed");
  await expect(rows.first().getByTestId("diff-removed")).toHaveText("Facts ");
  await expect(rows.first().getByTestId("diff-added")).toHaveText("Three facts ");
  for (const blockId of ["start", "style", "answer"]) {
    await expect(page.locator(`[data-testid="diff-row"][data-block-id="${blockId}"]`)).toHaveAttribute(
      "data-change",
      "same",
    );
  }
  await page.getByTestId("run-diff-close").click();
  await expect(page.getByTestId("run-history")).toBeVisible();

  // A changed prompt is not answered in a replay: the block says "not recorded", and the replay still costs nothing.
  const current = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as { version: number };
  const edited = await request.put(`/api/workflows/${workflowId}`, {
    data: { ...document("Five facts about <start.topic>"), version: current.version },
  });
  expect(edited.ok(), await edited.text()).toBe(true);
  await page.goto(runHref(workflowId, second.id));
  await run.expectStatus("succeeded");
  await page.getByTestId("run-replay").click();
  await expect(page.getByTestId("run-replay-of")).toContainText("Replay");
  await run.expectStatus("failed");
  await expect(page.getByTestId("block-run-not-recorded-facts")).toHaveText("not recorded");
  await expect(page.getByTestId("block-run-facts")).toContainText("its prompt changed");
  await expect(page.getByTestId("block-run-not-recorded-style")).toHaveCount(0);
});

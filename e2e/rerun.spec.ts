import { expect, test } from "@playwright/test";
import type { ApiRun } from "@/contract";
import { runHref } from "../components/ui/run-href";
import { importSupportRouting, RunPage, supportMessage } from "./pages/run-page";

test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test("Run from here on a finished run reuses the upstream blocks, runs the chosen one and links back", async ({
  page,
  request,
}) => {
  const workflowId = await importSupportRouting(request);
  const message = supportMessage(12);
  const finished = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input: { message }, wait: true },
    timeout: 120_000,
  });
  expect(finished.ok(), await finished.text()).toBe(true);
  const source = (await finished.json()) as ApiRun;
  expect(source.status).toBe("succeeded");

  // The finished run opened in the editor, as a link to it does.
  await page.goto(runHref(workflowId, source.id));
  await expect(page.getByTestId("editor")).toBeVisible();
  const run = new RunPage(page);
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("support")).toContainText("succeeded");

  await page.getByTestId("run-from-here-support").click();

  // The editor follows the new run: Start and Router reused (not run), the Support Agent and its response run again.
  await expect(page.getByTestId("run-rerun-of")).toContainText("Re-run from Support Agent of");
  await run.expectStatus("succeeded");
  await expect(page.getByTestId("block-run-reused-router")).toHaveText("reused");
  await expect(page.getByTestId("block-run-reused-start")).toHaveText("reused");
  await expect(page.getByTestId("block-run-reused-support")).toHaveCount(0);
  await expect(run.nodeText("support")).toHaveText(`Echo: ${message}`);
  await expect(run.nodeStatus("sales")).toHaveText("skipped");
  // The reused router's figures are not this run's: its node shows no tokens.
  await expect(run.nodeFigure("router", "tokens")).toHaveCount(0);
  await expect(run.nodeFigure("support", "tokens")).toBeVisible();

  const rerunId = await run.runId();
  expect(rerunId).not.toBe(source.id);
  const rerun = await run.apiRun(rerunId);
  expect(rerun.rerunOf).toEqual({ runId: source.id, blockId: "support" });
  expect(rerun.input).toEqual({ message });
  // The only model call of the new run is the Support Agent's; the router's came from the source run.
  expect(rerun.spans.filter((span) => span.kind === "model").map((span) => span.blockId)).toEqual(["support"]);
  const routerSpan = rerun.spans.find((span) => span.kind === "block" && span.blockId === "router")!;
  expect(routerSpan.reusedFrom).toBe(source.id);
  expect(rerun.tokens.total).toBeLessThan(source.tokens.total);

  // The trace says the router was not run.
  await page.getByTestId(`trace-row-${routerSpan.id}`).click();
  await expect(page.getByTestId("span-reused")).toContainText(`its result in run ${source.id} was reused`);

  // The history marks it as a re-run; the header links back to the source run.
  await page.getByTestId("run-tab-history").click();
  await expect(
    page.locator(`[data-testid="history-row"][data-run-id="${rerunId}"]`).getByTestId("history-rerun"),
  ).toHaveText("re-run");
  await expect(
    page.locator(`[data-testid="history-row"][data-run-id="${source.id}"]`).getByTestId("history-rerun"),
  ).toHaveCount(0);
  await page.getByTestId("run-rerun-of-link").click();
  await expect(page.getByTestId("trace-panel")).toHaveAttribute("data-run-id", source.id);
  await expect(page.getByTestId("run-rerun-of")).toHaveCount(0);
  await expect(page.getByTestId("block-run-reused-router")).toHaveCount(0);
});

import { expect, test, type Page } from "@playwright/test";
import { RunPage } from "./pages/run-page";

// Under `next dev` the first visit of each page compiles it, which can take a minute on a busy machine.
test.setTimeout(240_000);

/** Opens the home page, uses a template from its gallery and waits for the editor it opens; returns the new workflow's id. */
async function useTemplateFromHome(page: Page, templateId: string): Promise<string> {
  await page.goto("/");
  const card = page.getByTestId(`use-template-${templateId}`);
  await expect(card).toBeEnabled({ timeout: 120_000 });
  const created = page.waitForResponse((response) => response.url().endsWith("/api/workflows") && response.request().method() === "POST", { timeout: 60_000 });
  await card.click();
  const response = await created;
  expect(response.status()).toBe(201);
  const workflowId = ((await response.json()) as { id: string }).id;
  await page.waitForURL(`**/workflows/${workflowId}`, { timeout: 120_000 });
  await expect(page.getByTestId("run-button")).toBeEnabled({ timeout: 120_000 });
  return workflowId;
}

/** Keeps every distinct text the node's run output shows while the page renders, to see it stream. */
async function recordNodeTexts(page: Page, blockId: string): Promise<() => Promise<string[]>> {
  await page.evaluate((testId) => {
    const seen: string[] = [];
    (window as unknown as { nodeTexts: string[] }).nodeTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector(`[data-testid="${testId}"]`)?.textContent ?? "";
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, `block-run-text-${blockId}`);
  return () => page.evaluate(() => (window as unknown as { nodeTexts: string[] }).nodeTexts);
}

test("a template from home opens in the editor and runs on the offline model, its answer streaming in word by word", async ({ page }) => {
  await useTemplateFromHome(page, "support-routing");
  const run = new RunPage(page);
  await expect(page.getByTestId("empty-canvas-templates")).toHaveCount(0);

  // The start input's default is a refund request: the offline router picks the support agent,
  // whose system prompt shares its words ("refunds"), and the agent's echo arrives word by word.
  const texts = await recordNodeTexts(page, "support");
  await run.startRun({});
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("sales")).toHaveText("skipped");
  const answer = "Echo: My parcel arrived broken. Can I get a refund?\n\n[offline model, not a language model]";
  await expect(run.nodeText("support")).toHaveText(answer);
  const shown = await texts();
  expect(shown.at(-1)).toBe(answer);
  const partial = shown.filter((text) => text.length < answer.length && answer.startsWith(text));
  expect(partial.length, `texts shown while streaming: ${JSON.stringify(shown)}`).toBeGreaterThanOrEqual(3);

  // A question about prices goes to the sales agent instead: the router follows the message.
  await run.startRun({ message: "How much do your plans cost per month?" });
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("support")).toHaveText("skipped");
  await expect(run.nodeText("sales")).toContainText("Echo: How much do your plans cost per month?");
  const stored = await run.apiRun(await run.runId());
  expect(stored.output).toMatchObject({ team: "sales" });
});

test("the knowledge Q&A template makes its sample knowledge base and answers from it", async ({ page }) => {
  await useTemplateFromHome(page, "knowledge-qa");
  const run = new RunPage(page);
  await run.startRun({});
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("search")).toContainText("succeeded");
  const stored = await run.apiRun(await run.runId());
  const output = stored.output as { sources: Array<{ documentName: string }>; answer: string };
  expect(output.sources[0]?.documentName).toBe("refunds.md");
  expect(output.answer).toContain("Echo: Can I get a refund for a broken item?");
});

test("an empty workflow offers the templates on its canvas, and one fills it", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New workflow" })).toBeEnabled({ timeout: 120_000 });
  await page.getByRole("button", { name: "New workflow" }).click();
  await page.waitForURL("**/workflows/*", { timeout: 120_000 });
  const overlay = page.getByTestId("empty-canvas-templates");
  await expect(overlay).toBeVisible({ timeout: 120_000 });
  await expect(overlay.getByTestId("template-loop-list")).toContainText("Loop");
  await overlay.getByTestId("use-template-loop-list").click();
  await expect(overlay).toHaveCount(0);
  await expect(page.getByTestId("rf__node-describe")).toBeVisible();

  const run = new RunPage(page);
  await run.startRun({});
  await run.expectStatus("succeeded");
  const stored = await run.apiRun(await run.runId());
  expect((stored.output as { descriptions: unknown[] }).descriptions).toHaveLength(3);
});

import { expect, test, type Page } from "@playwright/test";
import { RunPage } from "./pages/run-page";

// Under `next dev` the first visit of each page compiles it, which can take a minute on a busy machine.
test.setTimeout(240_000);

/** Opens the home page, uses a template from its gallery and waits for the editor it opens; returns the new workflow's id. */
async function useTemplateFromHome(page: Page, templateId: string): Promise<string> {
  await page.goto("/");
  const card = page.getByTestId(`use-template-${templateId}`);
  await expect(card).toBeEnabled({ timeout: 120_000 });
  const created = page.waitForResponse(
    (response) => response.url().endsWith("/api/workflows") && response.request().method() === "POST",
    { timeout: 60_000 },
  );
  await card.click();
  const response = await created;
  expect(response.status()).toBe(201);
  const workflowId = ((await response.json()) as { id: string }).id;
  await page.waitForURL(`**/workflows/${workflowId}`, { timeout: 120_000 });
  await expect(page.getByTestId("run-button")).toBeEnabled({ timeout: 120_000 });
  return workflowId;
}

/**
 * RunPage.startRun with patience for `next dev`: a workflow's first run compiles the run routes,
 * which on a busy machine takes longer than the form's usual ten seconds to close.
 */
async function startRun(page: Page, input: Record<string, string>) {
  await page.getByTestId("run-button").click();
  for (const [name, value] of Object.entries(input)) await page.getByTestId(`run-input-${name}`).fill(value);
  await page.getByTestId("run-submit").click();
  await expect(page.getByTestId("run-form")).toBeHidden({ timeout: 120_000 });
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

test("a template from home opens in the editor and runs on the offline model: it routes by the message and its answer streams in word by word", async ({
  page,
}) => {
  await useTemplateFromHome(page, "support-routing");
  const run = new RunPage(page);
  await expect(page.getByTestId("empty-canvas-templates")).toHaveCount(0);

  // A question about prices: the offline router picks the sales agent, whose system prompt shares its words.
  await startRun(page, { message: "How much do your plans cost per month?" });
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("support")).toHaveText("skipped");
  await expect(run.nodeText("sales")).toContainText("Echo: How much do your plans cost per month?");
  const stored = await run.apiRun(await run.runId());
  expect(stored.output).toMatchObject({ team: "sales" });

  // A refund request goes to the support agent ("refunds" is in its prompt), and its echo arrives
  // word by word: the node shows part of the answer before all of it. (This is the second run, so
  // `next dev` has compiled the run's event stream and the page follows it live.)
  const texts = await recordNodeTexts(page, "support");
  await startRun(page, { message: "My parcel arrived broken. Can I get a refund?" });
  await run.expectStatus("succeeded");
  await expect(run.nodeStatus("sales")).toHaveText("skipped");
  const answer = "Echo: My parcel arrived broken. Can I get a refund?\n\n[offline model, not a language model]";
  await expect(run.nodeText("support")).toHaveText(answer);
  const shown = await texts();
  expect(shown.at(-1)).toBe(answer);
  const partial = shown.filter((text) => text.length < answer.length && answer.startsWith(text));
  expect(partial.length, `texts shown while streaming: ${JSON.stringify(shown)}`).toBeGreaterThanOrEqual(3);
});

test("the knowledge Q&A template makes its sample knowledge base and answers from it", async ({ page }) => {
  await useTemplateFromHome(page, "knowledge-qa");
  const run = new RunPage(page);
  await startRun(page, {});
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
  await startRun(page, {});
  await run.expectStatus("succeeded");
  const stored = await run.apiRun(await run.runId());
  expect((stored.output as { descriptions: unknown[] }).descriptions).toHaveLength(3);
});

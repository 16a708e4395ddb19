import { expect, test, type Page } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK, type TestBlock } from "./pages/editor-page";
import { importSupportRouting, RunPage } from "./pages/run-page";

/**
 * Run defects a new user found (issue 20): what the console, the toolbar's clock, the nodes and the
 * trace say while a run goes and once it ends. Each test failed before its fix.
 */

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000);
  // Under `next dev` each route compiles on first use: visit the run routes once before anything is timed.
  const workflowId = await importSupportRouting(request);
  await request.get(`/workflows/${workflowId}`, { timeout: 180_000 });
  const done = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input: { message: "support" }, wait: true },
    timeout: 120_000,
  });
  expect(done.ok()).toBe(true);
  const { id } = (await done.json()) as { id: string };
  await request.get(`/api/runs/${id}/events`, { timeout: 60_000 });
  await request.get(`/api/workflows/${workflowId}/runs?status=running`);
  // The cancel route too: compiled while a Function block spins, it could take longer than the block's time limit.
  await request.post(`/api/runs/${id}/cancel`, { timeout: 120_000 });
});

const functionBlock = (id: string, name: string, code: string, x: number): TestBlock => ({
  id,
  type: "function",
  name,
  position: { x, y: 160 },
  config: { code, timeoutMs: 60_000 },
});

async function openWorkflow(page: Page, name: string, blocks: TestBlock[]): Promise<RunPage> {
  const ids = [START_BLOCK, ...blocks].map((block) => block.id);
  const edges = ids
    .slice(1)
    .map((id, index) => ({ id: `e${index}`, source: ids[index], target: id, sourceHandle: "out" }));
  const workflowId = await createWorkflow(page.request, {
    name: `${name} ${Date.now()}`,
    blocks: [START_BLOCK, ...blocks],
    edges,
  });
  await new EditorPage(page).open(workflowId);
  return new RunPage(page);
}

test("a cancelled run shows the Function block it cut short as cancelled, with why, on the node, in the console and in the trace; what code printed is in the console", async ({
  page,
}) => {
  const run = await openWorkflow(page, "Cancel me", [
    functionBlock("printer", "Printer", 'console.log("first line"); console.log("second line"); return 1;', 320),
    functionBlock("slow", "Slow code", "while (true) {}", 600),
  ]);
  await run.startRun({ message: "go" });
  await expect(run.nodeStatus("slow")).toContainText("running", { timeout: 60_000 });

  // What the Printer's code printed, line by line in the Console tab (not only in the trace's JSON).
  const printed = page.getByTestId("console-stdout").and(page.locator('[data-block-id="printer"]'));
  await expect(printed).toHaveCount(2);
  await expect(printed.nth(0)).toContainText("first line");
  await expect(printed.nth(1)).toContainText("second line");

  await page.getByTestId("cancel-run").click();
  await run.expectStatus("cancelled", 15_000);
  await expect(run.nodeStatus("slow")).toHaveText("cancelled");
  await expect(page.getByTestId("block-run-reason-slow")).toHaveText(
    "The run was cancelled while this block was running",
  );
  await expect(page.getByTestId("console-event").filter({ hasText: "Slow code cancelled" })).toHaveText(
    /the run was cancelled while it was running/,
  );

  await page.getByTestId("run-tab-trace").click();
  const stored = await run.apiRun(await run.runId());
  const slowSpan = stored.spans.find((span) => span.kind === "block" && span.blockId === "slow")!;
  await expect(page.getByTestId(`trace-row-${slowSpan.id}`)).toHaveAttribute("data-status", "cancelled");
  await page.getByTestId(`trace-row-${slowSpan.id}`).click();
  await expect(page.getByTestId("span-status")).toHaveText("cancelled");
  await expect(page.getByTestId("span-cancelled-reason")).toContainText("cancelled while this was running");
});

test("a failed run's toolbar shows how long it took, as a successful one's does", async ({ page }) => {
  const run = await openWorkflow(page, "Fails", [functionBlock("broken", "Broken", 'throw new Error("boom");', 320)]);
  await run.startRun({ message: "go" });
  await run.expectStatus("failed", 60_000);
  const stored = await run.apiRun(await run.runId());
  await expect(page.getByTestId("run-duration")).toHaveAttribute("data-phase", "ended");
  await expect(page.getByTestId("run-duration")).toHaveText(/^\d[\d.,]* (ms|s)$|min/);
  expect(stored.durationMs).not.toBeNull();
});

test("a run waiting to start has a clock that ticks and says what it waits for", async ({ page }) => {
  const run = await openWorkflow(page, "Waits", [functionBlock("quick", "Quick", "return 1;", 320)]);
  // The server is slow to answer about the run (as when `next dev` compiles its routes on the first run).
  const held = async (route: import("@playwright/test").Route) => {
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await route.continue().catch(() => {});
  };
  await page.route(/\/api\/runs\/[^/]+(\/events)?$/, held);
  await run.startRun({ message: "go" });
  const clock = page.getByTestId("run-duration");
  await expect(clock).toHaveAttribute("data-phase", "waiting");
  const first = await clock.textContent();
  await expect.poll(() => clock.textContent(), { timeout: 3_000 }).not.toBe(first);
  await expect(clock).toHaveAttribute("title", /Waiting for the server to answer/);
  await expect(page.getByTestId("run-wait-reason")).toContainText("Waiting for the server to answer");
  await page.unroute(/\/api\/runs\/[^/]+(\/events)?$/);
  await run.expectStatus("succeeded", 60_000);
  await expect(clock).toHaveAttribute("data-phase", "ended");
});

test("streamed text shows in the console line by line as it arrives, skipped blocks by name, and the trace in run order with the time of day", async ({
  page,
  request,
}) => {
  const workflowId = await importSupportRouting(request);
  await new EditorPage(page).open(workflowId);
  const run = new RunPage(page);
  const words = (line: string) => Array.from({ length: 25 }, (_, index) => `${line}${index}`).join(" ");
  const message = `I need support:\n${words("alpha")}\n${words("beta")}\n${words("gamma")}`;
  // Started through the API (a message with line breaks), watched live from the open editor.
  const accepted = await request.post(`/api/workflows/${workflowId}/runs`, { data: { input: { message } } });
  expect(accepted.status()).toBe(202);

  const lines = page.getByTestId("console-text").and(page.locator('[data-block-id="support"]'));
  // Readable while it streams: earlier lines stand on their own while later ones still arrive.
  await expect
    .poll(async () => ((await lines.count()) >= 2 ? await run.status.getAttribute("data-status") : "one line so far"), {
      timeout: 60_000,
    })
    .toBe("running");
  await run.expectStatus("succeeded", 60_000);
  await expect(lines).toHaveCount(4);
  await expect(lines.nth(0)).toContainText("Echo: I need support:");
  await expect(lines.nth(1)).toContainText(words("alpha"));
  await expect(lines.nth(3)).toContainText(words("gamma"));

  await expect(page.getByTestId("console-event").filter({ hasText: "skipped" })).toContainText("Sales Agent skipped");

  await page.getByTestId("run-tab-trace").click();
  const blockRows = page.locator('[data-testid^="trace-row-"][data-kind="block"]');
  await expect(blockRows.first()).toContainText("Start");
  await expect(blockRows.nth(1)).toContainText("Router");
  await expect(page.getByTestId("span-started")).toHaveText(/^\d{2}:\d{2}:\d{2}\.\d{3}$/);
});

test("importing a workflow whose name the workspace has stores it under a copy's name and the report says so", async ({
  page,
}) => {
  const name = `Imported twice ${Date.now()}`;
  const file = {
    name: "twice.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify({ name, blocks: [START_BLOCK], edges: [] })),
  };
  await page.goto("/");
  await page.getByTestId("import-file").setInputFiles(file);
  await expect(page.getByTestId("import-report")).toContainText(`as “${name}”`, { timeout: 60_000 });
  await expect(page.getByTestId("import-renamed")).toHaveCount(0);
  await page.getByTestId("import-file").setInputFiles(file);
  await expect(page.getByTestId("import-report")).toContainText(`as “${name} (copy)”`);
  await expect(page.getByTestId("import-renamed")).toContainText(`already has a workflow called “${name}”`);
});

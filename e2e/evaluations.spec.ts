import { expect, test, type APIRequestContext } from "@playwright/test";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

test.describe.configure({ timeout: 300_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

/** start (message) -> agent (the test LLM server echoes the prompt word by word) -> response. */
const document = (prompt: string) => ({
  name: "Evaluated echo",
  blocks: [
    START_BLOCK,
    {
      id: "agent",
      type: "agent",
      name: "Agent",
      position: { x: 420, y: 160 },
      config: { model: "openai/gpt-4o-mini", userPrompt: prompt, maxTokens: 200 },
    },
    { id: "reply", type: "response", name: "Reply", position: { x: 760, y: 160 }, config: { data: "<Agent.content>" } },
  ],
  edges: [
    { id: "start-agent", source: "start", target: "agent" },
    { id: "agent-reply", source: "agent", target: "reply" },
  ],
});

// Long enough that each run streams for a second or so: the progress bar is seen while the suite runs.
const words = (topic: string) =>
  `${topic} ${"please answer this question about our product carefully and in full".repeat(2)}`;

async function runOnce(request: APIRequestContext, workflowId: string, message: string): Promise<string> {
  const response = await request.post(`/api/workflows/${workflowId}/runs`, {
    data: { input: { message }, wait: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

test("build a dataset from past runs and a typed row, run the suite, compare after a prompt change, and see Deploy refused", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, document("<start.message>"));
  const firstRun = await runOnce(request, workflowId, words("Shipping"));
  const secondRun = await runOnce(request, workflowId, words("Refunds"));

  // "Add to dataset" on two past runs: the first makes the dataset, the second joins it.
  await page.goto(`/workflows/${workflowId}/runs/${firstRun}`);
  await page.getByTestId("add-to-dataset").click();
  await expect(page.getByTestId("add-to-dataset-expected")).toHaveValue(`Echo: ${words("Shipping")}`);
  await page.getByTestId("add-to-dataset-name").fill("Support questions");
  await page.getByTestId("add-to-dataset-submit").click();
  await expect(page.getByTestId("add-to-dataset-form")).toBeHidden();
  await page.goto(`/workflows/${workflowId}/runs/${secondRun}`);
  await page.getByTestId("add-to-dataset").click();
  await expect(page.getByTestId("add-to-dataset-select")).toContainText("Support questions (1)");
  await page.getByTestId("add-to-dataset-submit").click();
  await expect(page.getByTestId("add-to-dataset-form")).toBeHidden();

  // One row typed in the table editor.
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await page.getByTestId("evaluations-open").click();
  const drawer = page.getByTestId("evaluations-drawer");
  await expect(drawer.getByTestId("dataset-row")).toHaveCount(2);
  const newRow = drawer.getByTestId("dataset-new-row");
  await newRow.getByLabel("message").fill(words("Billing"));
  await newRow.getByLabel("expected").fill(`Echo: ${words("Billing")}`);
  await newRow.getByTestId("case-add").click();
  await expect(drawer.getByTestId("dataset-row")).toHaveCount(3);
  await expect(drawer.getByTestId("dataset-version")).toContainText("Version 4 · 3 cases");

  // A suite: exact match, every case must pass to deploy; the workflow requires it.
  await drawer.getByTestId("evaluations-tab-suites").click();
  await drawer.getByTestId("suite-name").fill("Exact answers");
  await drawer.getByTestId("scorer-type").selectOption("exact");
  await drawer.getByTestId("gate-pass-rate").fill("1");
  await drawer.getByTestId("suite-create").click();
  await expect(drawer.getByTestId("suite-list")).toContainText("Exact answers");
  await drawer.getByTestId("suite-require").check();
  // Saved with the draft, as the workflow's settings.
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
            settings?: { requireEvaluation?: string };
          }
        ).settings?.requireEvaluation,
      {
        timeout: 45_000,
      },
    )
    .toBeTruthy();

  // Run it: the progress bar while it runs, then the results.
  await drawer.getByTestId("evaluations-tab-runs").click();
  await drawer.getByTestId("evaluation-start").click();
  await expect(drawer.getByTestId("evaluation-progress").first()).toBeVisible();
  await expect(drawer.getByTestId("evaluation-summary")).toContainText("Passed · pass rate 100% (3 of 3)", {
    timeout: 60_000,
  });
  await expect(drawer.getByTestId("result-row")).toHaveCount(3);

  // Change the prompt and evaluate the draft again.
  await drawer.getByTestId("evaluations-close").click();
  const stored = (await (await request.get(`/api/workflows/${workflowId}`)).json()) as {
    version: number;
    settings: unknown;
  };
  const changed = await request.put(`/api/workflows/${workflowId}`, {
    data: { ...document("Briefly: <start.message>"), settings: stored.settings, version: stored.version },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  await editor.open(workflowId);
  await page.getByTestId("evaluations-open").click();
  await drawer.getByTestId("evaluations-tab-runs").click();
  await drawer.getByTestId("evaluation-start").click();
  await expect(drawer.getByTestId("evaluation-summary")).toContainText("Failed · pass rate 0% (0 of 3)", {
    timeout: 60_000,
  });

  // Compare: the three cases regressed, with the output diff.
  await drawer.getByTestId("evaluations-tab-compare").click();
  await expect(drawer.getByTestId("compare-summary")).toContainText("3 regressed");
  await expect(drawer.locator('[data-testid="compare-row"][data-change="regressed"]')).toHaveCount(3);
  await expect(drawer.getByTestId("compare-output-diff").first()).toContainText("Briefly:");
  await drawer.getByTestId("evaluations-close").click();

  // Deploy is refused, with the threshold and the figure.
  await page.getByTestId("deploy-open").click();
  const deploy = page.getByTestId("deploy-drawer");
  await expect(deploy.getByTestId("gate-result")).toContainText("failed");
  await deploy.getByTestId("deploy-submit").click();
  await expect(deploy.getByTestId("deploy-error")).toContainText(
    "pass rate 0% (0 of 3 cases) is below the required 100%",
  );
  await expect(page.getByTestId("deploy-status")).toHaveText("Not deployed");
});

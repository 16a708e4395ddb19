import { expect, test } from "@playwright/test";
import { formatDollars } from "../components/ui/format";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";

// The first visit compiles the editor page when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ viewport: { width: 1600, height: 1000 } });

const AGENT = {
  id: "thinker",
  type: "agent",
  name: "Thinker",
  position: { x: 420, y: 160 },
  config: { model: "openai/o3-mini", userPrompt: "<start.message>", tools: ["calculator"] },
};

test("an agent's step rules and provider options are set by mouse, offered per model, and its reasoning tokens show in the trace", async ({
  page,
  request,
}) => {
  const workflowId = await createWorkflow(request, {
    name: "Agent loop rules",
    blocks: [START_BLOCK, AGENT],
    edges: [{ id: "e1", source: "start", sourceHandle: "out", target: "thinker" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Thinker");

  // o3-mini takes a reasoning effort (its levels only) and no thinking budget.
  const options = editor.field("providerOptions");
  const effort = options.getByLabel("Reasoning effort");
  await expect(effort.locator("option")).toHaveText(["provider default", "low", "medium", "high"]);
  await expect(options.getByLabel("Thinking budget (tokens)")).toHaveCount(0);
  await effort.selectOption("high");

  // A rule for step 1: only the calculator, and it must be called.
  const rules = editor.field("stepRules");
  await rules.getByTestId("field-stepRules-add").click();
  const rule = rules.getByTestId("field-stepRules-row");
  await expect(rule).toHaveCount(1);
  await rule.getByLabel("calculator").check();
  await rule.getByLabel("Rule 1 tool choice").selectOption({ label: "must call calculator" });
  // Old tool results pruned past 8000 tokens.
  await editor.field("pruneToolResults").getByLabel("Prune after tokens").fill("8000");
  await editor.expectSaved();

  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "thinker")?.config).toMatchObject({
    pruneToolResults: { afterTokens: 8000 },
    providerOptions: { reasoningEffort: "high" },
    stepRules: [{ fromStep: 1, toStep: 1, activeTools: ["calculator"], toolChoice: { tool: "calculator" } }],
  });

  // The test LLM server calls the tool a request forces, and reports reasoning tokens when asked to reason.
  const run = new RunPage(page);
  await run.startRun({ message: "What is 6 times 7?" });
  await run.expectStatus("succeeded");
  const storedRun = await run.apiRun(await run.runId());
  expect(storedRun.spans.filter((span) => span.kind === "tool").map((span) => span.name)).toEqual(["calculator"]);
  const modelSpans = storedRun.spans.filter((span) => span.kind === "model");
  expect(modelSpans.map((span) => span.tokens?.reasoning)).toEqual([64, 64]);
  expect(storedRun.tokens?.reasoning).toBe(128);
  const modelSpan = modelSpans.at(-1)!;
  expect(modelSpan.cost?.reasoning).toBeGreaterThan(0);

  await page.getByTestId(`trace-row-${modelSpan.id}`).click();
  const details = page.getByTestId("span-details");
  await expect(details.getByTestId("span-tokens-reasoning")).toHaveText("64");
  await expect(details.getByTestId("span-cost-reasoning")).toHaveText(formatDollars(modelSpan.cost!.reasoning!));
});

test("the provider options offered follow the chosen model", async ({ page, request }) => {
  const workflowId = await createWorkflow(request, {
    name: "Agent options per model",
    blocks: [
      START_BLOCK,
      {
        ...AGENT,
        config: { model: "offline/echo", userPrompt: "<start.message>", providerOptions: { reasoningEffort: "high" } },
      },
    ],
    edges: [{ id: "e1", source: "start", sourceHandle: "out", target: "thinker" }],
  });
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await editor.select("Thinker");
  const options = editor.field("providerOptions");
  await expect(options).toContainText("offline/echo takes no provider options.");
  // An option the model does not take is named, and can be removed.
  await expect(options).toContainText('reasoningEffort = "high" is not an option of offline/echo.');
  await options.getByRole("button", { name: "Remove" }).click();
  await editor.expectSaved();
  const stored = await editor.storedWorkflow(workflowId);
  expect(stored.blocks.find((block) => block.id === "thinker")?.config).not.toHaveProperty("providerOptions");
});

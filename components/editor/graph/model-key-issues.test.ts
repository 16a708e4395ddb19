import { describe, expect, it } from "vitest";
import type { ModelSummary, WorkflowDocument } from "@/contract";
import { fixListItems } from "./issue-attention";
import { issuesByBlock } from "./issues-by-block";
import { modelKeyIssues } from "./model-key-issues";

const model = (id: string, missingSetting?: string): ModelSummary => ({
  id,
  provider: id.split("/")[0]!,
  logo: "/providers/x.svg",
  label: id,
  prices: null,
  unpriced: true,
  providerOptions: [],
  ...(missingSetting ? { missingSetting } : {}),
});
const MODELS = [
  model("offline/echo"),
  model("openai/gpt-4o"),
  model("anthropic/claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
  model("openai-compatible/<model>", "OPENAI_COMPATIBLE_BASE_URL"),
];
const RECORDED = { recorded: { runId: "run_1", spanId: "span_1", output: { text: "hi" } } };

function documentOf(
  blocks: Array<{ id: string; type: string; name: string; config: Record<string, unknown>; testing?: unknown }>,
) {
  return {
    version: 1,
    blocks: blocks.map((block, index) => ({ position: { x: index * 100, y: 0 }, ...block })),
    edges: [],
  } as unknown as WorkflowDocument;
}

describe("models without a key in the list of what to fix", () => {
  it("lists each block whose model's provider has no key or no server, by the block and its Model field", () => {
    const document = documentOf([
      { id: "a", type: "agent", name: "Writer", config: { model: "anthropic/claude-sonnet-4-5" } },
      { id: "b", type: "agent", name: "Checker", config: { model: "openai/gpt-4o" } },
      { id: "c", type: "router", name: "Triage", config: { model: "openai-compatible/llama-3" } },
      { id: "d", type: "agent", name: "Echo", config: { model: "offline/echo" } },
      { id: "e", type: "agent", name: "Chosen by reference", config: { model: "{{MODEL}}" } },
    ]);
    const { issues, testRunAllowed } = modelKeyIssues(document, MODELS);
    expect(issues).toEqual([
      {
        path: "blocks[0].config.model",
        message:
          "Block 'Writer': Model: anthropic/claude-sonnet-4-5 has no key: set ANTHROPIC_API_KEY in Settings › Model providers",
      },
      {
        path: "blocks[2].config.model",
        message:
          "Block 'Triage': Model: openai-compatible/llama-3 has no server: the server's operator sets OPENAI_COMPATIBLE_BASE_URL",
      },
    ]);
    expect(testRunAllowed).toBe(false);
    const items = fixListItems(
      document.blocks.map((block) => ({ id: block.id, data: block })),
      issuesByBlock(document, issues),
      { touched: {}, runAttemptedFor: {} },
    );
    expect(items[0]).toMatchObject({
      blockName: "Writer",
      fieldLabel: "Model",
      text: "anthropic/claude-sonnet-4-5 has no key: set ANTHROPIC_API_KEY in Settings › Model providers",
      hint: false,
    });
  });

  it("allows a test run when every keyless block answers it from a recorded answer", () => {
    const recorded = documentOf([
      { id: "a", type: "agent", name: "Writer", config: { model: "anthropic/claude-sonnet-4-5" }, testing: RECORDED },
    ]);
    expect(modelKeyIssues(recorded, MODELS)).toMatchObject({ testRunAllowed: true });
    expect(modelKeyIssues(recorded, MODELS).issues).toHaveLength(1);
  });

  it("says nothing before the model list has loaded, or when every provider is set up", () => {
    const document = documentOf([{ id: "a", type: "agent", name: "Writer", config: { model: "anthropic/claude-x" } }]);
    expect(modelKeyIssues(document, undefined).issues).toEqual([]);
    expect(modelKeyIssues(document, [model("anthropic/claude-y")]).issues).toEqual([]);
    // A typed id the list does not hold takes its provider's mark.
    expect(modelKeyIssues(document, MODELS).issues).toHaveLength(1);
  });
});

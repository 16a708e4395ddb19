import type { IssueDetail, ModelSummary, WorkflowDocument } from "@/contract";
import { getBlockDefinition } from "@/blocks";

export interface ModelKeyIssues {
  /** One per block whose model's provider has no key (or no server) for this workspace, pathed like the validator's. */
  issues: IssueDetail[];
  /**
   * Every such block answers a test run from its recorded answer (no model call), so a test run
   * may go while a real run may not.
   */
  testRunAllowed: boolean;
}

/** What the provider of `modelId` still needs (the model list marks it per model), or undefined when it can run. */
function missingSettingOf(modelId: string, models: readonly ModelSummary[]): string | undefined {
  const listed = models.find((model) => model.id === modelId);
  if (listed) return listed.missingSetting;
  // A typed id the list does not hold (ollama/<model>): its provider is marked the same on every model.
  const provider = modelId.slice(0, modelId.indexOf("/"));
  return models.find((model) => model.provider === provider)?.missingSetting;
}

/**
 * The blocks that would fail at their model for want of a key, as items of the editor's list of
 * what to fix, read from the model list's marks (which read the workspace's secrets, then the
 * server's environment, as a run does). A model given by a reference is left to the run.
 */
export function modelKeyIssues(
  document: WorkflowDocument,
  models: readonly ModelSummary[] | undefined,
): ModelKeyIssues {
  const issues: IssueDetail[] = [];
  let testRunAllowed = true;
  if (!models?.length) return { issues, testRunAllowed };
  document.blocks.forEach((block, index) => {
    const fields = getBlockDefinition(block.type)?.fields ?? [];
    for (const field of fields) {
      if (field.kind !== "model") continue;
      const value = block.config[field.key];
      if (typeof value !== "string" || !value.includes("/") || value.includes("{{")) continue;
      const missing = missingSettingOf(value.trim(), models);
      if (!missing) continue;
      const what = missing.endsWith("_BASE_URL")
        ? `${value} has no server: the server's operator sets ${missing}`
        : `${value} has no key: set ${missing} in Settings › Model providers`;
      issues.push({
        path: `blocks[${index}].config.${field.key}`,
        message: `Block '${block.name}': ${field.label}: ${what}`,
      });
      if (!block.testing?.recorded) testRunAllowed = false;
    }
  });
  return { issues, testRunAllowed };
}

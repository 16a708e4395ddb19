import "server-only";
import type { IssueDetail, WorkflowDocument } from "@/contract";
import { GraphValidationError } from "@/executor";
import { missingProviderSetting, type ProviderEnvInput } from "@/providers";

/** The provider settings a workspace's runs read (its stored keys, then the operator's). */
export type ProviderEnvFor = (workspaceId: string) => Promise<ProviderEnvInput>;

/** A block's fallback model ids, when its config lists any (Router, Evaluator: providers/model-fallbacks.ts). */
function fallbackModelsOf(config: unknown): string[] {
  const list = (config as { fallbackModels?: unknown } | undefined)?.fallbackModels;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
}

/** Whether any block lists fallback models: only then are the workspace's keys read. */
export function hasFallbackModels(document: WorkflowDocument): boolean {
  return document.blocks.some((block) => fallbackModelsOf(block.config).length > 0);
}

/**
 * Refuses (400 `invalid_workflow`) a fallback model whose provider has no key (or, for a provider
 * with no default server, no base URL) where the workspace's runs would look: a fallback is there
 * for when the first model fails, and one that cannot run would only fail too, unseen until then.
 * Each issue names the block, the model and the variable to set.
 */
export function refuseFallbacksWithoutKeys(document: WorkflowDocument, env: ProviderEnvInput): void {
  const issues: IssueDetail[] = [];
  document.blocks.forEach((block, blockIndex) => {
    fallbackModelsOf(block.config).forEach((modelId, index) => {
      const provider = modelId.slice(0, Math.max(0, modelId.indexOf("/")));
      const variable = missingProviderSetting(provider, env);
      if (!variable) return;
      issues.push({
        path: `blocks[${blockIndex}].config.fallbackModels[${index}]`,
        message: `Block "${block.name}": fallback model '${modelId}' cannot run without ${variable}; set ${variable} as a workspace secret (or in the server's environment), or remove the model`,
      });
    });
  });
  if (issues.length > 0) throw new GraphValidationError(issues.map((issue) => issue.message).join("; "), issues);
}

import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { promptToText } from "./offline/offline-responder";
import { type RetryPolicy, withRetries } from "./retry-policy";
import { countTokens } from "./token-counter";

/**
 * Wraps a provider's model so every call (1) retries per the policy before any output arrives and
 * (2) reports usage: when the provider reports none, tokens are counted locally with o200k_base
 * and flagged with `raw.trellisEstimated`, which the usage mapper turns into `estimated: true`.
 */
export const ESTIMATED_FLAG = "trellisEstimated";

function estimateIfMissing(usage: LanguageModelV4Usage | undefined, promptText: () => string, completionText: string): LanguageModelV4Usage {
  const inputMissing = usage?.inputTokens.total === undefined;
  const outputMissing = usage?.outputTokens.total === undefined;
  if (usage && !inputMissing && !outputMissing) return usage;
  const input = inputMissing ? countTokens(promptText()) : (usage?.inputTokens.total ?? 0);
  const output = outputMissing ? countTokens(completionText) : (usage?.outputTokens.total ?? 0);
  return {
    inputTokens: { ...(usage?.inputTokens ?? { noCache: undefined, cacheRead: undefined, cacheWrite: undefined }), total: input },
    outputTokens: { ...(usage?.outputTokens ?? { text: undefined, reasoning: undefined }), total: output },
    raw: { ...(usage?.raw ?? {}), [ESTIMATED_FLAG]: true },
  };
}

export function makeResilient(model: LanguageModelV4, policy: RetryPolicy): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options) {
      const result = await withRetries(policy, options.abortSignal, () => model.doGenerate(options));
      const text = result.content.map((part) => (part.type === "text" ? part.text : part.type === "tool-call" ? part.input : "")).join("");
      return { ...result, usage: estimateIfMissing(result.usage, () => promptToText(options.prompt), text) };
    },
    async doStream(options) {
      const result = await withRetries(policy, options.abortSignal, () => model.doStream(options));
      let completion = "";
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === "text-delta" || part.type === "tool-input-delta" || part.type === "reasoning-delta") completion += part.delta;
            if (part.type === "finish") {
              controller.enqueue({ ...part, usage: estimateIfMissing(part.usage, () => promptToText(options.prompt), completion) });
              return;
            }
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

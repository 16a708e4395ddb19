import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { promptToText } from "./offline/offline-responder";
import { type RetryPolicy, withRetries } from "./retry-policy";
import { measureTokensAsync } from "./token-counter";

/**
 * A provider's model as every call sees it: (1) retried per the policy before any output arrives
 * and (2) always reporting usage: when the provider reports none, tokens are counted locally with
 * o200k_base and flagged with `raw.trellisEstimated`, which the usage mapper turns into
 * `estimated: true`.
 */
export const ESTIMATED_FLAG = "trellisEstimated";

/**
 * Retries the call itself, which settles before the first chunk is read: a stream that breaks
 * later is never repeated (its text has been delivered), it is reported as interrupted.
 */
function retryMiddleware(policy: RetryPolicy): LanguageModelMiddleware {
  return {
    wrapGenerate: ({ doGenerate, params }) => withRetries(policy, params.abortSignal, doGenerate),
    wrapStream: ({ doStream, params }) => withRetries(policy, params.abortSignal, doStream),
  };
}

async function estimateIfMissing(
  usage: LanguageModelV4Usage | undefined,
  promptText: () => string,
  completionText: string,
): Promise<LanguageModelV4Usage> {
  const inputMissing = usage?.inputTokens.total === undefined;
  const outputMissing = usage?.outputTokens.total === undefined;
  if (usage && !inputMissing && !outputMissing) return usage;
  // Counted in slices (a long prompt would otherwise hold the event loop); flagged estimated either way.
  const input = inputMissing ? (await measureTokensAsync(promptText())).tokens : (usage?.inputTokens.total ?? 0);
  const output = outputMissing ? (await measureTokensAsync(completionText)).tokens : (usage?.outputTokens.total ?? 0);
  return {
    inputTokens: {
      ...(usage?.inputTokens ?? { noCache: undefined, cacheRead: undefined, cacheWrite: undefined }),
      total: input,
    },
    outputTokens: { ...(usage?.outputTokens ?? { text: undefined, reasoning: undefined }), total: output },
    raw: { ...(usage?.raw ?? {}), [ESTIMATED_FLAG]: true },
  };
}

const estimatedUsageMiddleware: LanguageModelMiddleware = {
  async wrapGenerate({ doGenerate, params }) {
    const result = await doGenerate();
    const text = result.content
      .map((part) => (part.type === "text" ? part.text : part.type === "tool-call" ? part.input : ""))
      .join("");
    return { ...result, usage: await estimateIfMissing(result.usage, () => promptToText(params.prompt), text) };
  },
  async wrapStream({ doStream, params }) {
    const result = await doStream();
    let completion = "";
    const stream = result.stream.pipeThrough(
      new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        async transform(part, controller) {
          if (part.type === "text-delta" || part.type === "tool-input-delta" || part.type === "reasoning-delta")
            completion += part.delta;
          if (part.type === "finish") {
            controller.enqueue({
              ...part,
              usage: await estimateIfMissing(part.usage, () => promptToText(params.prompt), completion),
            });
            return;
          }
          controller.enqueue(part);
        },
      }),
    );
    return { ...result, stream };
  },
};

/** Estimation wraps the retries, so only the attempt that answered is counted. */
export function makeResilient(model: LanguageModelV4, policy: RetryPolicy): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: [estimatedUsageMiddleware, retryMiddleware(policy)] });
}

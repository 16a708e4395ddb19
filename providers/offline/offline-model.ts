import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { countTokens } from "../token-counter";
import { offlineAnswer, promptToText } from "./offline-responder";

/**
 * `offline/echo`: a real AI SDK language model that needs no key and no network. It is not a
 * language model in any useful sense (see offline-responder.ts); it lets a new user run a workflow
 * at once. Its token counts are exact o200k_base counts of the prompt text and the answer.
 */
export const OFFLINE_PROVIDER = "offline";

function usageOf(options: LanguageModelV4CallOptions, answer: string): LanguageModelV4Usage {
  const input = countTokens(promptToText(options.prompt));
  const output = countTokens(answer);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException("Aborted", "AbortError");
}

/** Splits the answer into word-sized chunks, so the canvas sees it stream like a real model. */
export function chunksOf(answer: string): string[] {
  return answer.match(/\S+\s*|\s+/g) ?? [];
}

export function createOfflineModel(modelId = "echo"): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: OFFLINE_PROVIDER,
    modelId,
    supportedUrls: {},
    async doGenerate(options): Promise<LanguageModelV4GenerateResult> {
      throwIfAborted(options.abortSignal);
      const answer = offlineAnswer(options);
      return {
        content: [{ type: "text", text: answer }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usageOf(options, answer),
        warnings: [],
      };
    },
    async doStream(options): Promise<LanguageModelV4StreamResult> {
      throwIfAborted(options.abortSignal);
      const answer = offlineAnswer(options);
      const usage = usageOf(options, answer);
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "text-0" },
        ...chunksOf(answer).map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "text-0", delta })),
        { type: "text-end", id: "text-0" },
        { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
      ];
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        pull(controller) {
          if (options.abortSignal?.aborted) {
            controller.error(options.abortSignal.reason ?? new DOMException("Aborted", "AbortError"));
            return;
          }
          const part = parts[index++];
          if (part) controller.enqueue(part);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

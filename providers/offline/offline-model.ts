import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { ESTIMATED_FLAG } from "../resilient-model";
import { measureTokensAsync } from "../token-counter";
import { offlineAnswer, promptToText } from "./offline-responder";

/**
 * `offline/echo`: a real AI SDK language model that needs no key and no network. It is not a
 * language model in any useful sense (see offline-responder.ts); it lets a new user run a workflow
 * at once, and stands in usefully: it routes by keyword overlap, scores evaluator metrics from text
 * features and streams word by word at a visible pace. Its token counts are o200k_base counts of
 * the prompt text and the answer: exact up to 256 KiB, estimated (and flagged so) past it.
 */
export const OFFLINE_PROVIDER = "offline";

async function usageOf(options: LanguageModelV4CallOptions, answer: string): Promise<LanguageModelV4Usage> {
  const input = await measureTokensAsync(promptToText(options.prompt), options.abortSignal);
  const output = await measureTokensAsync(answer, options.abortSignal);
  const usage: LanguageModelV4Usage = {
    inputTokens: { total: input.tokens, noCache: input.tokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output.tokens, text: output.tokens, reasoning: 0 },
  };
  if (input.estimated || output.estimated) usage.raw = { [ESTIMATED_FLAG]: true };
  return usage;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException("Aborted", "AbortError");
}

/** Splits the answer into word-sized chunks, so the canvas sees it stream like a real model. */
export function chunksOf(answer: string): string[] {
  return answer.match(/\S+\s*|\s+/g) ?? [];
}

/** How fast the offline model streams: one word per `wordDelayMs`, so the editor shows text arriving. */
export interface OfflinePace {
  wordDelayMs: number;
  /** Waits `ms`, rejecting when `signal` aborts (injected so tests need not wait). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A visible pace for a short answer: a twelve-word echo takes about half a second. */
export const DEFAULT_OFFLINE_WORD_DELAY_MS = 40;

/**
 * The longest a whole answer takes to stream. An echo of a long prompt (a knowledge answer with its
 * chunks, a loop's list) has hundreds of words: at the word pace it would hold a run for tens of
 * seconds, so a long answer's words come faster to finish within this.
 */
export const OFFLINE_STREAM_LIMIT_MS = 2_000;

/** The wait between words for an answer of `wordCount` words: the pace, shortened so the answer ends within the limit. */
export function wordDelayFor(wordCount: number, wordDelayMs: number): number {
  const waits = Math.max(wordCount - 1, 1);
  return Math.min(wordDelayMs, Math.floor(OFFLINE_STREAM_LIMIT_MS / waits));
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("Aborted", "AbortError"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function createOfflineModel(
  modelId = "echo",
  pace: OfflinePace = { wordDelayMs: DEFAULT_OFFLINE_WORD_DELAY_MS },
): LanguageModelV4 {
  const sleep = pace.sleep ?? sleepFor;
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
        usage: await usageOf(options, answer),
        warnings: [],
      };
    },
    async doStream(options): Promise<LanguageModelV4StreamResult> {
      throwIfAborted(options.abortSignal);
      const answer = offlineAnswer(options);
      const usage = await usageOf(options, answer);
      const parts: LanguageModelV4StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "text-0" },
        ...chunksOf(answer).map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id: "text-0", delta })),
        { type: "text-end", id: "text-0" },
        { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } },
      ];
      const wordDelayMs = wordDelayFor(parts.length - 4, pace.wordDelayMs);
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>(
        {
          async pull(controller) {
            if (options.abortSignal?.aborted) {
              controller.error(options.abortSignal.reason ?? new DOMException("Aborted", "AbortError"));
              return;
            }
            const part = parts[index++];
            if (!part) return controller.close();
            // Each word after the first waits its turn; the first comes at once, like a model's first token.
            if (part.type === "text-delta" && parts[index - 2]?.type === "text-delta" && wordDelayMs > 0) {
              try {
                await sleep(wordDelayMs, options.abortSignal);
              } catch (error) {
                controller.error(error);
                return;
              }
            }
            controller.enqueue(part);
          },
          // Pull a part only when the reader asks for it, so no word waits ahead of the one being read.
        },
        { highWaterMark: 0 },
      );
      return { stream };
    },
  };
}

/** The variable setting the offline model's pace, in milliseconds per word (0: all at once). */
export const OFFLINE_WORD_DELAY_ENV = "TRELLIS_OFFLINE_WORD_DELAY_MS";

/** The pace an operator set in OFFLINE_WORD_DELAY_ENV; undefined when unset (the default applies). */
export function offlinePaceFrom(value: string | undefined): OfflinePace | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const wordDelayMs = Number(value);
  if (!Number.isInteger(wordDelayMs) || wordDelayMs < 0 || wordDelayMs > 5000)
    throw new Error(
      `${OFFLINE_WORD_DELAY_ENV} must be a whole number of milliseconds from 0 to 5000, not ${JSON.stringify(value)}`,
    );
  return { wordDelayMs };
}

import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { promptToText } from "./offline/offline-responder";
import { ESTIMATED_FLAG } from "./resilient-model";
import { countTokens } from "./token-counter";

/**
 * Wraps a model to see each call (each step of a tool loop) begin and end at the provider: the
 * exact moment its stream finishes, with the usage the provider reported. Tool execution happens
 * outside these bounds, so a model span times the model alone.
 */
export interface ModelCallObserver {
  start(): ModelCallHandle;
}

export interface ModelCallHandle {
  finish(usage: LanguageModelV4Usage, outcome: ModelCallOutcome): void;
  /**
   * `partialText`: what the call had streamed before it failed. `usage`: what the interrupted call
   * cost, when it had been sent (streaming providers report usage only at the end, so it is counted
   * locally from the prompt and `partialText`, flagged estimated).
   */
  fail(error: unknown, partialText: string, usage?: LanguageModelV4Usage): void;
}

/** What a call answered: its text, why it stopped, the tools it called, and the model that answered when the provider named it. */
export interface ModelCallOutcome {
  text: string;
  finishReason: string;
  toolCalls: string[];
  /** The provider's name for the model that answered (it may differ from the one asked for, an alias resolved). */
  responseModel?: string;
}

function once(handle: ModelCallHandle): ModelCallHandle {
  let done = false;
  return {
    finish: (usage, outcome) => {
      if (done) return;
      done = true;
      handle.finish(usage, outcome);
    },
    fail: (error, partialText, usage) => {
      if (done) return;
      done = true;
      handle.fail(error, partialText, usage);
    },
  };
}

/**
 * Reads the stream part by part (rather than piping it through a transform) so that a consumer
 * cancelling it, or the stream ending without a finish, also ends the call's handle.
 */
function observedStream(
  source: ReadableStream<LanguageModelV4StreamPart>,
  handle: ModelCallHandle,
  promptText: () => string,
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = source.getReader();
  let text = "";
  let responseModel: string | undefined;
  const toolCalls: string[] = [];
  // The call was sent, so its prompt was paid for, and whatever it streamed before it broke off.
  const interrupted = (error: unknown) => handle.fail(error, text, interruptedUsage(promptText(), text));
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          interrupted(new Error("the stream ended without a finish"));
          controller.close();
          return;
        }
        if (value.type === "text-delta") text += value.delta;
        else if (value.type === "tool-call") toolCalls.push(value.toolName);
        else if (value.type === "error") interrupted(value.error);
        else if (value.type === "response-metadata" && value.modelId) responseModel = value.modelId;
        else if (value.type === "finish")
          handle.finish(value.usage, {
            text,
            finishReason: value.finishReason.unified,
            toolCalls,
            ...(responseModel ? { responseModel } : {}),
          });
        controller.enqueue(value);
      } catch (error) {
        interrupted(error);
        controller.error(error);
      }
    },
    async cancel(reason) {
      interrupted(reason ?? new Error("cancelled"));
      await reader.cancel(reason);
    },
  });
}

/** Locally counted usage of a call that broke off after streaming `partialText`, flagged estimated. */
function interruptedUsage(promptText: string, partialText: string): LanguageModelV4Usage {
  return {
    inputTokens: { total: countTokens(promptText), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: countTokens(partialText), text: undefined, reasoning: undefined },
    raw: { [ESTIMATED_FLAG]: true },
  };
}

function observationMiddleware(observer: ModelCallObserver): LanguageModelMiddleware {
  return {
    async wrapGenerate({ doGenerate }) {
      const handle = once(observer.start());
      try {
        const result = await doGenerate();
        const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
        const toolCalls = result.content.flatMap((part) => (part.type === "tool-call" ? [part.toolName] : []));
        const responseModel = result.response?.modelId;
        handle.finish(result.usage, {
          text,
          finishReason: result.finishReason.unified,
          toolCalls,
          ...(responseModel ? { responseModel } : {}),
        });
        return result;
      } catch (error) {
        handle.fail(error, "");
        throw error;
      }
    },
    async wrapStream({ doStream, params }) {
      const handle = once(observer.start());
      let result;
      try {
        result = await doStream();
      } catch (error) {
        handle.fail(error, "");
        throw error;
      }
      return { ...result, stream: observedStream(result.stream, handle, () => promptToText(params.prompt)) };
    },
  };
}

export function observeModelCalls(model: LanguageModelV4, observer: ModelCallObserver): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: observationMiddleware(observer) });
}

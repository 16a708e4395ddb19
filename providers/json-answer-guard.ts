import type { LanguageModelV4, LanguageModelV4Content, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { describeJsonHazard, findJsonHazard, MAX_JSON_DEPTH } from "@/contract";
import { ProviderCallError, type TrellisError } from "@/core";
import { StructuredOutputError } from "./provider-errors";

export interface JsonAnswerScope {
  provider: string;
  modelId: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x7b, 0x5b]);
const CLOSERS = new Set([0x7d, 0x5d]);

/** The nesting of JSON text read piece by piece, as it streams, outside strings. */
class StreamedJsonDepth {
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Reads the next piece; true once the nesting has passed `limit`. */
  passes(text: string, limit: number): boolean {
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
      } else if (code === QUOTE) this.inString = true;
      else if (OPENERS.has(code)) {
        this.depth += 1;
        if (this.depth > limit) return true;
      } else if (CLOSERS.has(code)) this.depth = Math.max(0, this.depth - 1);
    }
    return false;
  }
}

function tooDeepAnswer(scope: JsonAnswerScope, answered: string): StructuredOutputError {
  const hazard = describeJsonHazard({ kind: "too_deep", limit: MAX_JSON_DEPTH, path: "" });
  return new StructuredOutputError(
    scope.provider,
    `${scope.modelId} answered JSON that ${hazard}`,
    answered,
    undefined,
  );
}

function deepToolCall(scope: JsonAnswerScope, toolName: string, input: string): ProviderCallError | undefined {
  const hazard = findJsonHazard(input);
  if (!hazard) return undefined;
  return new ProviderCallError(
    scope.provider,
    `${scope.modelId} called the tool "${toolName}" with arguments whose JSON ${describeJsonHazard(hazard)}`,
  );
}

function guardStream(
  json: boolean,
  scope: JsonAnswerScope,
): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  const depth = new StreamedJsonDepth();
  let answered = "";
  let refused = false;
  const refuse = (controller: TransformStreamDefaultController<LanguageModelV4StreamPart>, error: TrellisError) => {
    refused = true;
    controller.enqueue({ type: "error", error });
    // Ends the stream here and cancels the provider's: nothing after it is read.
    controller.terminate();
  };
  return new TransformStream({
    transform(part, controller) {
      if (refused) return;
      if (json && part.type === "text-delta") {
        answered += part.delta;
        if (depth.passes(part.delta, MAX_JSON_DEPTH)) return refuse(controller, tooDeepAnswer(scope, answered));
      } else if (part.type === "tool-call") {
        const error = deepToolCall(scope, part.toolName, part.input);
        if (error) return refuse(controller, error);
      }
      controller.enqueue(part);
    },
  });
}

function checkContent(content: readonly LanguageModelV4Content[], json: boolean, scope: JsonAnswerScope): void {
  for (const part of content) {
    if (json && part.type === "text" && findJsonHazard(part.text)) throw tooDeepAnswer(scope, part.text);
    if (part.type === "tool-call") {
      const error = deepToolCall(scope, part.toolName, part.input);
      if (error) throw error;
    }
  }
}

function guardMiddleware(scope: JsonAnswerScope): LanguageModelMiddleware {
  return {
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      return {
        ...result,
        stream: result.stream.pipeThrough(guardStream(params.responseFormat?.type === "json", scope)),
      };
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      checkContent(result.content, params.responseFormat?.type === "json", scope);
      return result;
    },
  };
}

/**
 * A model's JSON answers (structured output, tool-call arguments) are parsed by the AI SDK, whose
 * own copies and comparisons recurse once per level, and then walked by the run (references,
 * redaction, storage): an answer nested thousands of levels deep overflowed the stack and failed
 * the block with "Maximum call stack size exceeded". Past MAX_JSON_DEPTH it fails instead with a
 * message naming the limit, before the SDK sees it.
 */
export function guardJsonAnswers(model: LanguageModelV4, scope: JsonAnswerScope): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: guardMiddleware(scope) });
}

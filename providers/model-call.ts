import {
  streamText,
  isStepCount,
  ToolChoiceViolationError,
  type ModelMessage,
  type PrepareStepFunction,
  type StopCondition,
  type ToolSet,
  type OutputInterface,
} from "ai";
import type { SharedV4ProviderOptions } from "@ai-sdk/provider";
import {
  type BlockBudget,
  type BlockMemo,
  type ChildSpanOptions,
  type ChildSpan,
  failureCarrying,
  ProviderCallError,
  TrellisError,
  replayedUsage,
  sumUsage,
} from "@/core";
import { type Usage } from "@/contract";
import type { ResolvedModel } from "./model-registry";
import { budgetedModel } from "./budgeted-model";
import { guardJsonAnswers } from "./json-answer-guard";
import { observeModelCalls, type ModelCallHandle } from "./observed-model";
import { replayableModel } from "./replayable-model";
import {
  abortError,
  isUnreadableAnswer,
  StreamInterruptedError,
  StructuredOutputError,
  toTrellisError,
  type ErrorScope,
} from "./provider-errors";
import { pricedProviderCall } from "./usage-mapping";

/**
 * One model interaction over the AI SDK's streamText: a single call, or a tool loop of up to
 * `maxSteps` calls. Each call is a `model` child span with its own tokens and cost; text deltas
 * are forwarded as they arrive; a call past its time limit, a cancelled run and a stream that
 * breaks mid-way each end in a Trellis error (the partial text kept on the last). The error's
 * `spent` is what the calls that finished before the failure cost.
 */
export interface ModelCallHooks {
  signal: AbortSignal;
  startSpan(options: ChildSpanOptions): ChildSpan;
  onTextDelta?(text: string): void;
  /** A durable run's block memo: finished answers are kept, and replayed when the block runs again. */
  memo?: BlockMemo;
  /** The run's budget (HandlerContext.budget): each call reserves its worst case first and is not made when it could cross a cap. */
  budget?: BlockBudget;
  /**
   * A tool call the AI SDK refused before running it (arguments failing the tool's schema, a tool
   * name the agent does not have): the model gets the error as the call's result.
   */
  onRejectedToolCall?(call: RejectedToolCall): void;
}

export interface RejectedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  error: { code: "invalid_tool_input" | "unknown_tool"; message: string };
}

export interface RunModelOptions {
  model: ResolvedModel;
  system?: string;
  messages: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  tools?: ToolSet;
  /** Model calls at most (1 = no tool loop). */
  maxSteps?: number;
  /** Tools whose successful call ends the loop: their result is the answer, no further model call. */
  answeringTools?: ReadonlySet<string>;
  /** Per-step settings of the tool loop (the AI SDK's prepareStep). */
  prepareStep?: PrepareStepFunction<ToolSet>;
  /** Passed through to the provider's client, in its own shape (`{ openai: { reasoningEffort } }`). */
  providerOptions?: SharedV4ProviderOptions;
  // The AI SDK types Output by its schema; this runner passes any schema through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  output?: OutputInterface<any, any, any>;
  hooks: ModelCallHooks;
}

export interface ModelRunResult {
  /** Text of the last call (the final answer). */
  text: string;
  /** Parsed structured output, when `output` was given (and no answering tool ended the loop). */
  output?: unknown;
  /** The call of one of `answeringTools` that ended the loop, with its result. */
  answeredBy?: { toolName: string; result: unknown };
  /** Sum of every call. */
  usage: Usage;
  /** Usage of each call, in order. */
  calls: Usage[];
  /** Time spent inside model calls, in ms. */
  modelTimeMs: number;
  finishReason: string;
}

const PARSE_FAILED = Symbol("structured output parse failure");

function isParseFailure(value: unknown): value is { [PARSE_FAILED]: unknown } {
  return typeof value === "object" && value !== null && PARSE_FAILED in value;
}

export async function runModel(options: RunModelOptions): Promise<ModelRunResult> {
  const { model, hooks } = options;
  const scope: ErrorScope = { provider: model.provider, modelId: model.id, secrets: model.secrets };
  if (hooks.signal.aborted) throw abortError({ cancelled: true, timedOut: false }, scope, model.timeoutMs);

  const controller = new AbortController();
  const state = { cancelled: false, timedOut: false };
  const onCancel = () => {
    state.cancelled = true;
    controller.abort(hooks.signal.reason);
  };
  hooks.signal.addEventListener("abort", onCancel, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;

  const calls: Usage[] = [];
  const open = new Set<ModelCallHandle>();
  let modelTimeMs = 0;
  let callNumber = 0;

  const checked = guardJsonAnswers(model.model, { provider: model.provider, modelId: model.id });
  // Below the memo: an answer the memo gives again costs nothing and asks nothing of the budget.
  const guarded = hooks.budget ? budgetedModel(checked, model.id, hooks.budget, model.workspacePrices) : checked;
  const observed = observeModelCalls(hooks.memo ? replayableModel(guarded, hooks.memo) : guarded, {
    start() {
      callNumber += 1;
      // Each call gets the full time limit; the timer stops while tools run.
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.timedOut = true;
        controller.abort(new Error("timeout"));
      }, model.timeoutMs);
      const span = hooks.startSpan({
        kind: "model",
        name: model.id,
        model: model.id,
        input: callNumber === 1 ? { system: options.system, messages: options.messages } : { call: callNumber },
      });
      const started = performance.now();
      const handle: ModelCallHandle = {
        finish(usage, outcome) {
          if (!open.has(handle)) return;
          clearTimeout(timer);
          open.delete(handle);
          modelTimeMs += performance.now() - started;
          const priced = pricedProviderCall(model.id, usage, { overrides: model.workspacePrices });
          // A replayed answer was paid for by the run it was recorded in: this run spends nothing on it.
          const spent = hooks.memo?.replaying ? replayedUsage(priced.usage) : priced.usage;
          calls.push(spent);
          span.end({
            output: outcome,
            usage: spent,
            ...(priced.price && !hooks.memo?.replaying ? { price: priced.price } : {}),
          });
        },
        fail(error, partialText, usage) {
          if (!open.has(handle)) return;
          clearTimeout(timer);
          open.delete(handle);
          modelTimeMs += performance.now() - started;
          const info = describeFailure(error, partialText);
          if (!usage) {
            span.end({ error: { code: info.code, message: info.message } });
            return;
          }
          // An interrupted call still cost its prompt and what it streamed: counted, not lost as $0.
          const priced = pricedProviderCall(model.id, usage, { overrides: model.workspacePrices });
          const spent = hooks.memo?.replaying ? replayedUsage(priced.usage) : priced.usage;
          calls.push(spent);
          span.end({ error: { code: info.code, message: info.message }, usage: spent });
        },
      };
      open.add(handle);
      return handle;
    },
  });

  const describeFailure = (error: unknown, partialText: string) => {
    if (error instanceof TrellisError) return error;
    if (state.cancelled || state.timedOut) return abortError(state, scope, model.timeoutMs);
    // The AI SDK enforces a forced tool choice (a step rule's): a model that ignores it fails the call, naming the rule broken.
    if (ToolChoiceViolationError.isInstance(error)) {
      return new ProviderCallError(
        model.provider,
        `${model.id} did not follow the step's tool choice: ${error.message}`,
        { code: "tool_choice_violated" },
      );
    }
    if (partialText && !isHttpError(error)) {
      return new StreamInterruptedError(
        model.provider,
        `${model.id} broke off mid-answer after ${partialText.length} characters: ${rootMessage(error)}`,
        partialText,
      );
    }
    return toTrellisError(error, scope);
  };

  let answeredBy: ModelRunResult["answeredBy"];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tools are the caller's, of any types
  const answeredByTool: StopCondition<any> = ({ steps }) => {
    const result = steps
      .at(-1)
      ?.toolResults.find((each) => options.answeringTools?.has(each.toolName) && !each.preliminary);
    if (result) answeredBy = { toolName: result.toolName, result: result.output };
    return result !== undefined;
  };

  let lastStepText = "";
  let allText = "";
  let finishReason = "unknown";
  let failure: unknown;
  try {
    const result = streamText({
      model: observed,
      system: options.system,
      messages: options.messages,
      temperature: options.temperature,
      maxOutputTokens: options.maxOutputTokens,
      tools: options.tools,
      stopWhen: options.answeringTools?.size
        ? [isStepCount(options.maxSteps ?? 1), answeredByTool]
        : isStepCount(options.maxSteps ?? 1),
      output: options.output,
      prepareStep: options.prepareStep,
      providerOptions: options.providerOptions,
      maxRetries: 0, // the resilient model wrapper retries, with jitter
      abortSignal: controller.signal,
      onError: () => {}, // read from the stream below
    });
    for await (const part of result.fullStream) {
      if (part.type === "start-step") lastStepText = "";
      else if (part.type === "text-delta") {
        lastStepText += part.text;
        allText += part.text;
        hooks.onTextDelta?.(part.text);
      } else if (part.type === "tool-call" && part.invalid)
        hooks.onRejectedToolCall?.(rejectedCall(part, options.tools));
      else if (part.type === "finish-step" || part.type === "finish") finishReason = part.finishReason;
      else if (part.type === "error") failure ??= part.error;
      else if (part.type === "abort") failure ??= new Error("aborted");
    }
    if (!failure && finishReason === "interrupted") failure = new Error("the stream ended before the model finished");
    if (failure) throw failure;
    if (answeredBy) return { text: lastStepText, answeredBy, usage: sumUsage(calls), calls, modelTimeMs, finishReason };
    const output = options.output
      ? await Promise.resolve(result.output).catch((error: unknown) => ({ [PARSE_FAILED]: error }))
      : undefined;
    if (isParseFailure(output)) {
      const preview = lastStepText.length > 200 ? `${lastStepText.slice(0, 200)}...` : lastStepText;
      throw new StructuredOutputError(
        model.provider,
        `${model.id} did not answer JSON matching the response format; it answered: ${JSON.stringify(preview)}`,
        lastStepText,
        output[PARSE_FAILED],
      );
    }
    return { text: lastStepText, output, usage: sumUsage(calls), calls, modelTimeMs, finishReason };
  } catch (error) {
    const described = describeFailure(error, allText);
    for (const handle of [...open]) handle.fail(described, allText);
    // The engine adds `spent` to the run's totals when the block fails with this error. A call
    // stopped by its time limit or a cancel keeps what it had streamed, as a broken stream does.
    const keepsText = Boolean(allText) && described.partialOutput === undefined;
    const failure = failureCarrying(
      described,
      keepsText ? { spent: sumUsage(calls), partialOutput: { content: allText } } : { spent: sumUsage(calls) },
    );
    if (keepsText) interruptedTexts.set(failure, allText);
    throw failure;
  } finally {
    clearTimeout(timer);
    hooks.signal.removeEventListener("abort", onCancel);
  }
}

const interruptedTexts = new WeakMap<TrellisError, string>();

/** The text a model call streamed before `error` stopped it (a broken stream, a timeout, a cancel). */
export function interruptedText(error: TrellisError): string | undefined {
  return error instanceof StreamInterruptedError ? error.partialText : interruptedTexts.get(error);
}

function isHttpError(error: unknown): boolean {
  const status =
    typeof error === "object" && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === "number" && status >= 300;
}

/**
 * The innermost cause's message: "terminated" or "other side closed" rather than a wrapper's. An
 * answer the AI SDK could not read is not quoted (its errors carry the answer's text).
 */
function rootMessage(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; ; depth++) {
    if (isUnreadableAnswer(current)) return "the rest of the answer was not in the provider's format (not shown)";
    if (depth >= 5 || !(current instanceof Error) || !(current.cause instanceof Error)) break;
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

/** Why the AI SDK refused a call: a tool it does not know, or arguments its schema rejects. */
function rejectedCall(
  call: { toolCallId: string; toolName: string; input: unknown; error?: unknown },
  tools: ToolSet | undefined,
): RejectedToolCall {
  const known = tools !== undefined && Object.hasOwn(tools, call.toolName);
  const detail = call.error instanceof Error ? call.error.message : String(call.error ?? "rejected");
  const message = known
    ? `The arguments do not match the tool's schema: ${detail}`
    : `The model called a tool this agent does not have: ${detail}`;
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
    error: { code: known ? "invalid_tool_input" : "unknown_tool", message },
  };
}

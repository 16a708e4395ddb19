import "server-only";
import { jsonSchema, Output } from "ai";
import {
  BlockExecutionError,
  failureCarrying,
  isTrellisError,
  outputText,
  type BlockHandler,
  type HandlerContext,
  addUsage,
  emptyUsage,
  sumUsage,
} from "@/executor";
import { type ToolEntry, type Usage } from "@/contract";
import {
  fallsBack,
  type ModelRegistry,
  runModel,
  sdkProviderOptions,
  interruptedText,
  usageOutputFields,
} from "@/providers";
import type { ToolRegistry } from "@/tools/registry";
import type { ToolContext } from "@/tools/types";
import { buildConversation } from "./agent-messages";
import type { AgentConfig } from "./definition";
import { normalizeResponseFormat } from "./response-format";
import { checkRuleTools, stepPreparer } from "./step-preparer";
import { toolOutcomesByName } from "./tool-outcomes";
import { trackTools, type ToolTracker } from "./tracked-tools";
import { withInputValidation } from "./validated-tools";

export interface AgentHandlerDependencies {
  models: ModelRegistry;
  /** Without a registry, an agent that lists tools fails with a clear error. */
  tools?: ToolRegistry;
}

type Cleanup = () => Promise<void> | void;

async function prepareTools(
  entries: readonly ToolEntry[] | undefined,
  dependencies: AgentHandlerDependencies,
  context: HandlerContext,
  cleanups: Cleanup[],
): Promise<AgentTools | undefined> {
  if (!entries || entries.length === 0) return undefined;
  if (!dependencies.tools)
    throw new BlockExecutionError("This agent lists tools but no tool registry is configured", {
      code: "invalid_tool",
    });
  // The tools need the tracker (to nest spans) and the tracker needs the tools: a late-bound slot.
  const slot: { tracker?: ToolTracker } = {};
  const answering = new Set<string>();
  const toolContext: ToolContext = {
    runId: context.runId,
    workflowId: context.workflowId,
    blockId: context.block.id,
    signal: context.signal,
    depth: context.depth,
    variables: context.variables,
    toolSpan: (toolCallId) => slot.tracker?.spanOf(toolCallId),
    startSpan: context.startSpan,
    onCleanup: (cleanup) => void cleanups.push(cleanup),
    reportUsage: (toolCallId, usage) => slot.tracker?.reportUsage(toolCallId, usage),
    markDirectOutput: (toolName) => void answering.add(toolName),
    ...(context.memo ? { memo: context.memo } : {}),
    ...(context.budget ? { budget: context.budget } : {}),
    ...(context.simulation ? { simulation: context.simulation } : {}),
  };
  slot.tracker = trackTools(
    withInputValidation(await dependencies.tools.resolve(entries, toolContext)),
    context.startSpan,
  );
  return { tracker: slot.tracker, answering };
}

interface AgentTools {
  tracker: ToolTracker;
  /** Tools whose successful call is the agent's answer (workflow tools with `directOutput`). */
  answering: ReadonlySet<string>;
}

/**
 * The agent's answer when a `directOutput` workflow tool ended the loop: the workflow's output
 * read as text (text as it is, an agent's `content`, an object's one text value, else JSON).
 */
function directAnswer(result: unknown): string {
  const output =
    typeof result === "object" && result !== null && "output" in result
      ? (result as { output: unknown }).output
      : result;
  return outputText(output);
}

/**
 * The agent's streamed text. An answer the model did not write (a `directOutput` workflow's) is
 * streamed too, after what the model said before calling it, so the canvas and a chat show it
 * as they show a model's answer.
 */
function streamedText(context: HandlerContext) {
  let any = false;
  return {
    emit(text: string) {
      any ||= text.length > 0;
      context.emitDelta(text);
    },
    answer(text: string) {
      if (text) context.emitDelta(any ? `\n\n${text}` : text);
      return text;
    },
  };
}

/**
 * The agent block (the seed's agent pipeline): memories and prompts in, a streamed answer out,
 * with a tool loop of at most `maxIterations` model calls and an optional JSON Schema response
 * whose fields are spread into the output.
 */
export function createAgentHandler(dependencies: AgentHandlerDependencies): BlockHandler<AgentConfig> {
  return async ({ config, context }) => {
    const conversation = buildConversation(config);
    const schema = normalizeResponseFormat(config.responseFormat);
    // Tools may hold resources (MCP clients, their child processes) until the tool loop ends.
    const cleanups: Cleanup[] = [];
    try {
      const tools = await prepareTools(config.tools, dependencies, context, cleanups);
      const modelIds = [config.model, ...config.fallbackModels];
      // A fallback starts the turn again, so only while nothing happened yet: no tool ran, no text was streamed.
      let streamedAny = false;
      const watched: HandlerContext =
        modelIds.length > 1
          ? {
              ...context,
              emitDelta: (text) => {
                streamedAny = true;
                context.emitDelta(text);
              },
            }
          : context;
      const earlier: Usage[] = [];
      for (let index = 0; ; index += 1) {
        try {
          const model = dependencies.models.resolve(modelIds[index]!);
          const result = await runAgent(config, model, conversation, schema, tools, watched);
          if (earlier.length === 0) return result;
          const usage = sumUsage([...earlier, result.usage]);
          return { output: { ...result.output, ...usageOutputFields(usage) }, usage };
        } catch (error) {
          const untouched = !streamedAny && (tools?.tracker.calls.length ?? 0) === 0;
          if (index === modelIds.length - 1 || !untouched || !fallsBack(error)) {
            if (earlier.length === 0 || !isTrellisError(error)) throw error;
            throw failureCarrying(error, { spent: sumUsage(error.spent ? [...earlier, error.spent] : earlier) });
          }
          if (isTrellisError(error) && error.spent) earlier.push(error.spent);
        }
      }
    } finally {
      await Promise.allSettled(cleanups.map(async (cleanup) => cleanup()));
    }
  };
}

async function runAgent(
  config: AgentConfig,
  model: ReturnType<ModelRegistry["resolve"]>,
  conversation: ReturnType<typeof buildConversation>,
  schema: ReturnType<typeof normalizeResponseFormat>,
  tools: AgentTools | undefined,
  context: HandlerContext,
) {
  const tracker = tools?.tracker;
  const startedAt = new Date();
  const started = performance.now();
  const timing = (modelTimeMs: number, iterations: number) => ({
    startTime: startedAt.toISOString(),
    endTime: new Date().toISOString(),
    duration: Math.round(performance.now() - started),
    modelTime: Math.round(modelTimeMs),
    toolsTime: Math.round(tracker?.busyMs() ?? 0),
    iterations,
  });
  // A sub-workflow called as a tool spent on its own models: the agent's figures include it.
  const withToolUsage = (usage: Usage): Usage => {
    const spentByTools = tracker?.toolUsage();
    return spentByTools ? addUsage(usage, spentByTools) : usage;
  };
  const streamed = streamedText(context);
  // Tool names are only all known once resolved (a whole MCP server): the rules are checked again here.
  checkRuleTools(config.stepRules, Object.keys(tracker?.tools ?? {}));
  try {
    const result = await runModel({
      model,
      system: conversation.system,
      messages: conversation.messages,
      temperature: config.temperature,
      maxOutputTokens: config.maxTokens,
      tools: tracker?.tools,
      maxSteps: tracker ? config.maxIterations : 1,
      answeringTools: tools?.answering,
      prepareStep: stepPreparer(config.stepRules, config.pruneToolResults),
      providerOptions: sdkProviderOptions(model.id, config.providerOptions),
      output: schema ? Output.object({ schema: jsonSchema(schema) }) : undefined,
      hooks: {
        signal: context.signal,
        startSpan: context.startSpan,
        onTextDelta: streamed.emit,
        memo: context.memo,
        budget: context.budget,
        onRejectedToolCall: (call) => tracker?.reject(call),
      },
    });
    const structured =
      schema && typeof result.output === "object" && result.output !== null
        ? (result.output as Record<string, unknown>)
        : {};
    const usage = withToolUsage(result.usage);
    const output: Record<string, unknown> = {
      content: result.answeredBy ? streamed.answer(directAnswer(result.answeredBy.result)) : result.text,
      ...structured,
      model: model.id,
      ...usageOutputFields(usage),
      toolCalls: { list: tracker?.calls ?? [], count: tracker?.calls.length ?? 0 },
      toolOutcomes: toolOutcomesByName(Object.keys(tracker?.tools ?? {}), tracker?.calls ?? []),
      providerTiming: timing(result.modelTimeMs, result.calls.length),
    };
    return { output, usage };
  } catch (error) {
    if (!isTrellisError(error)) throw error;
    // What the tools spent before the failure counts too, as it does in the usage of a success.
    const spent = withToolUsage(error.spent ?? emptyUsage());
    const partialText = interruptedText(error);
    if (partialText === undefined) throw failureCarrying(error, { spent });
    // Keep what was streamed, with what was spent, for the block's output on failure.
    const partialOutput = {
      content: partialText,
      model: model.id,
      ...usageOutputFields(spent),
      toolCalls: { list: tracker?.calls ?? [], count: tracker?.calls.length ?? 0 },
    };
    throw failureCarrying(error, { spent, partialOutput });
  }
}

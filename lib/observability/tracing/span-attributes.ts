import type { Attributes } from "@opentelemetry/api";
import type { RunRecord, SpanRecord, Usage } from "@/contract";

/**
 * What a run's exported spans say, in the OpenTelemetry GenAI semantic conventions where they have
 * a name for it (model calls and tool calls) and under `trellis.*` for the rest. Cost is Trellis's
 * own figure, the one the editor shows: `trellis.cost.total` (US dollars) and its parts on every
 * span that spent, and on model spans also `gen_ai.usage.cost` and Langfuse's
 * `langfuse.observation.cost_details`, so backends that price calls themselves need not guess.
 */

/** What every span of the run carries: which run, workflow, workspace, deployment and trigger it belongs to. */
export function runAttributes(run: RunRecord, workspaceId: string): Attributes {
  const attributes: Attributes = {
    "trellis.run.id": run.id,
    "trellis.workflow.id": run.workflowId,
    "trellis.workspace.id": workspaceId,
    "trellis.trigger": run.trigger?.kind ?? "editor",
    "trellis.run.test": Boolean(run.test),
  };
  if (run.deploymentId) attributes["trellis.deployment.id"] = run.deploymentId;
  if (run.replayOf) attributes["trellis.run.replay_of"] = run.replayOf;
  if (run.rerunOf) attributes["trellis.run.rerun_of"] = run.rerunOf.runId;
  return attributes;
}

/** Tokens and dollars under Trellis's names: for run and block spans, whose figures are sums of their model calls. */
export function usageAttributes(usage: Usage | undefined): Attributes {
  if (!usage) return {};
  const attributes: Attributes = {
    "trellis.tokens.prompt": usage.tokens.prompt,
    "trellis.tokens.completion": usage.tokens.completion,
    "trellis.tokens.total": usage.tokens.total,
    "trellis.cost.unpriced": Boolean(usage.unpriced),
  };
  if (usage.estimated) attributes["trellis.tokens.estimated"] = true;
  if (usage.cost) {
    attributes["trellis.cost.total"] = usage.cost.total;
    attributes["trellis.cost.input"] = usage.cost.input;
    attributes["trellis.cost.output"] = usage.cost.output;
    if (usage.cost.reasoning !== undefined) attributes["trellis.cost.reasoning"] = usage.cost.reasoning;
  }
  return attributes;
}

/** `openai/gpt-4o` -> the provider (`gen_ai.provider.name`, `gen_ai.system`) and the provider's model name. */
function splitModelId(modelId: string): { provider: string; model: string } {
  const slash = modelId.indexOf("/");
  return slash === -1
    ? { provider: "trellis", model: modelId }
    : { provider: modelId.slice(0, slash), model: modelId.slice(slash + 1) };
}

interface ModelOutcome {
  text?: unknown;
  finishReason?: unknown;
  responseModel?: unknown;
}

/** A model call: the GenAI attributes, and (only when the operator opted in) its prompt and completion, already masked. */
export function modelAttributes(span: SpanRecord, captureContent: boolean, mask: (text: string) => string): Attributes {
  const modelId = span.model ?? span.name ?? "unknown";
  const { provider, model } = splitModelId(modelId);
  const outcome = (span.output && typeof span.output === "object" ? span.output : {}) as ModelOutcome;
  const attributes: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.provider.name": provider,
    "gen_ai.system": provider,
    "gen_ai.request.model": model,
    "trellis.model": modelId,
  };
  if (typeof outcome.responseModel === "string") attributes["gen_ai.response.model"] = outcome.responseModel;
  if (typeof outcome.finishReason === "string") attributes["gen_ai.response.finish_reasons"] = [outcome.finishReason];
  const usage = span.usage;
  if (usage) {
    attributes["gen_ai.usage.input_tokens"] = usage.tokens.prompt;
    attributes["gen_ai.usage.output_tokens"] = usage.tokens.completion;
    if (usage.tokens.cachedPrompt) attributes["gen_ai.usage.cache_read.input_tokens"] = usage.tokens.cachedPrompt;
    if (usage.tokens.cacheWrite) attributes["gen_ai.usage.cache_creation.input_tokens"] = usage.tokens.cacheWrite;
    if (usage.tokens.reasoning) attributes["gen_ai.usage.reasoning.output_tokens"] = usage.tokens.reasoning;
    Object.assign(attributes, usageAttributes(usage));
    if (usage.cost) {
      attributes["gen_ai.usage.cost"] = usage.cost.total;
      attributes["langfuse.observation.cost_details"] = JSON.stringify({
        input: usage.cost.input,
        output: usage.cost.output,
        total: usage.cost.total,
      });
    }
  }
  if (span.price) {
    attributes["trellis.price.source"] = span.price.source;
    attributes["trellis.price.input_per_million"] = span.price.prices.input;
    attributes["trellis.price.output_per_million"] = span.price.prices.output;
  }
  if (captureContent) {
    if (span.input !== undefined) attributes["gen_ai.input.messages"] = mask(JSON.stringify(span.input));
    if (typeof outcome.text === "string")
      attributes["gen_ai.output.messages"] = mask(
        JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: outcome.text }] }]),
      );
  }
  return attributes;
}

/** A tool call, as the GenAI conventions name one; its arguments and result only with the same opt-in. */
export function toolAttributes(span: SpanRecord, captureContent: boolean, mask: (text: string) => string): Attributes {
  const attributes: Attributes = {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": span.name ?? "unknown",
  };
  Object.assign(attributes, usageAttributes(span.usage));
  if (captureContent) {
    if (span.input !== undefined) attributes["gen_ai.tool.call.arguments"] = mask(JSON.stringify(span.input));
    if (span.output !== undefined) attributes["gen_ai.tool.call.result"] = mask(JSON.stringify(span.output));
  }
  return attributes;
}

/** Where the span sits in the run: its block, iteration, status and attempts. */
export function blockAttributes(span: SpanRecord): Attributes {
  const attributes: Attributes = {
    "trellis.span.kind": span.kind,
    "trellis.block.id": span.blockId,
    "trellis.block.name": span.blockName,
    "trellis.block.type": span.blockType,
    "trellis.status": span.status,
  };
  if (span.iteration) attributes["trellis.iteration"] = span.iteration;
  if (span.attempts !== undefined) attributes["trellis.attempts"] = span.attempts;
  if (span.simulated) attributes["trellis.simulated"] = span.simulated;
  if (span.reusedFrom) attributes["trellis.reused_from"] = span.reusedFrom;
  if (span.worker) attributes["trellis.worker"] = span.worker;
  if (span.error) attributes["error.type"] = span.error.code;
  return attributes;
}

import type { ModelMessage, PrepareStepFunction, PrepareStepResult, ToolSet } from "ai";
import { BlockExecutionError } from "@/executor";
import { countTokens, tokenizerReady } from "@/providers";
import { ruleForStep, ruleToolNames, type PruneToolResults, type StepRule } from "./step-rules";

/** What stands in for a pruned tool result: the model learns it existed and was dropped. */
export function prunedNote(toolName: string): string {
  return `[pruned: this result of ${toolName} was removed to keep the conversation short]`;
}

/** The conversation's size as the pruning limit counts it (o200k_base over its JSON). */
export function estimateTokens(messages: ReadonlyArray<ModelMessage>): number {
  return countTokens(JSON.stringify(messages));
}

/**
 * The messages with every tool result but the last `keepLast` replaced by a note, once they are
 * estimated past `afterTokens`; the same array when under the limit or nothing is left to prune.
 */
export function pruneToolResults(messages: ModelMessage[], limits: PruneToolResults): ModelMessage[] {
  if (estimateTokens(messages) <= limits.afterTokens) return messages;
  const total = messages.reduce(
    (count, message) =>
      count + (message.role === "tool" ? message.content.filter((part) => part.type === "tool-result").length : 0),
    0,
  );
  let toPrune = total - limits.keepLast;
  if (toPrune <= 0) return messages;
  let changed = false;
  const pruned = messages.map((message) => {
    if (message.role !== "tool" || toPrune <= 0) return message;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result" || toPrune <= 0) return part;
      toPrune -= 1;
      const note = prunedNote(part.toolName);
      if (part.output.type === "text" && part.output.value === note) return part;
      changed = true;
      return { ...part, output: { type: "text" as const, value: note } };
    });
    return { ...message, content };
  });
  return changed ? pruned : messages;
}

/** A rule naming a tool the agent's resolved tools lack fails before any model call, naming it. */
export function checkRuleTools(rules: ReadonlyArray<StepRule> | undefined, toolNames: ReadonlyArray<string>): void {
  for (const { name, path } of ruleToolNames(rules)) {
    if (toolNames.includes(name)) continue;
    const have = toolNames.length > 0 ? `its tools are ${toolNames.join(", ")}` : "it has no tools";
    const where = path
      .map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`))
      .join("")
      .slice(1);
    throw new BlockExecutionError(`${where}: "${name}" is not one of this agent's tools (${have})`, {
      code: "invalid_config",
    });
  }
}

/**
 * The AI SDK `prepareStep` for an agent: the step's rule (tools offered, tool choice,
 * temperature, output cap) and pruning of old tool results; undefined when the agent has neither.
 */
export function stepPreparer(
  rules: ReadonlyArray<StepRule> | undefined,
  prune: PruneToolResults | undefined,
): PrepareStepFunction<ToolSet> | undefined {
  if (!rules?.length && !prune) return undefined;
  return async ({ stepNumber, messages }) => {
    const settings: PrepareStepResult<ToolSet> = {};
    const rule = ruleForStep(rules, stepNumber + 1);
    if (rule?.activeTools) settings.activeTools = rule.activeTools;
    if (rule?.toolChoice !== undefined)
      settings.toolChoice =
        typeof rule.toolChoice === "string" ? rule.toolChoice : { type: "tool", toolName: rule.toolChoice.tool };
    if (rule?.temperature !== undefined) settings.temperature = rule.temperature;
    if (rule?.maxOutputTokens !== undefined) settings.maxOutputTokens = rule.maxOutputTokens;
    if (prune) {
      await tokenizerReady();
      const pruned = pruneToolResults(messages, prune);
      if (pruned !== messages) settings.messages = pruned;
    }
    return settings;
  };
}

import { z } from "zod";
import { checkModelOptions } from "@/contract";
import { outcomeNamesOf } from "./tool-outcomes";

/**
 * Per-step rules of an agent's tool loop (the AI SDK's `prepareStep`): which tools a step may
 * use, whether it must call one (or a given one), and its temperature. Steps count from 1, each
 * one model call; the first rule whose range holds a step applies to it, and a step no rule
 * holds runs with the agent's own settings. Browser-safe: the inspector and the save-time
 * check read it.
 */

export const TOOL_CHOICE_MODES = ["auto", "required", "none"] as const;

export const stepRuleSchema = z
  .object({
    /** First step the rule applies to (1 = the first model call). */
    fromStep: z.number().int().min(1).default(1),
    /** Last step it applies to, included; absent: every later step. */
    toStep: z.number().int().min(1).optional(),
    /** The only tools offered on these steps (names of the agent's tools); absent: all of them. */
    activeTools: z.array(z.string().min(1, "must not be empty")).optional(),
    /** `auto` (the model decides), `required` (some tool), `none`, or `{ tool }`: that tool must be called. */
    toolChoice: z
      .union([z.enum(TOOL_CHOICE_MODES), z.object({ tool: z.string().min(1, "must name a tool") })])
      .optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Extension: the output cap of these steps' model calls, over the agent's `maxTokens`. */
    maxOutputTokens: z.number().int().min(1).optional(),
  })
  .refine((rule) => rule.toStep === undefined || rule.toStep >= rule.fromStep, {
    message: "toStep must not be before fromStep",
    path: ["toStep"],
  });

export type StepRule = z.infer<typeof stepRuleSchema>;

/**
 * Old tool results are replaced by a short note once the conversation is estimated (o200k_base)
 * to pass `afterTokens`; the last `keepLast` results are always kept whole.
 */
export const pruneToolResultsSchema = z.object({
  afterTokens: z.number().int().min(1),
  keepLast: z.number().int().min(0).default(1),
});

export type PruneToolResults = z.infer<typeof pruneToolResultsSchema>;

/** Options passed through to the model's provider; which ones a model accepts is providers/model-options.ts's. */
export const providerOptionsSchema = z.strictObject({
  reasoningEffort: z.string().min(1).optional(),
  thinkingBudget: z.number().int().min(0).optional(),
});

/** The rule for a step (1-based), or undefined when none holds it. */
export function ruleForStep(rules: ReadonlyArray<StepRule> | undefined, step: number): StepRule | undefined {
  return rules?.find((rule) => step >= rule.fromStep && (rule.toStep === undefined || step <= rule.toStep));
}

/** Every tool name the rules mention, with where, for checks against the agent's tools. */
export function ruleToolNames(
  rules: ReadonlyArray<StepRule> | undefined,
): Array<{ name: string; path: Array<string | number> }> {
  const named: Array<{ name: string; path: Array<string | number> }> = [];
  (rules ?? []).forEach((rule, index) => {
    rule.activeTools?.forEach((name, at) => named.push({ name, path: ["stepRules", index, "activeTools", at] }));
    if (typeof rule.toolChoice === "object")
      named.push({ name: rule.toolChoice.tool, path: ["stepRules", index, "toolChoice", "tool"] });
  });
  return named;
}

/** The tool names an agent's `tools` config gives before it runs; null when some entry's names are only known then (a whole MCP server). */
export function configuredToolNames(tools: unknown): string[] | null {
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const entry of tools) {
    const own = outcomeNamesOf(entry);
    if (own === null) return null;
    for (const name of own) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** A model given as a reference (`<block.field>`, `{{ENV}}`) is only known at run time. */
function isLiteralModel(model: unknown): model is string {
  return typeof model === "string" && !/[<{]/.test(model);
}

interface LoopConfig {
  model?: unknown;
  tools?: unknown;
  stepRules?: ReadonlyArray<StepRule>;
  providerOptions?: z.infer<typeof providerOptionsSchema>;
}

/**
 * Save-time checks across fields: a step rule naming a tool the agent does not have, and a
 * provider option the chosen model does not accept, are refused, each naming what is wrong.
 */
export function checkLoopConfig(config: LoopConfig, context: z.RefinementCtx): void {
  const known = configuredToolNames(config.tools);
  if (known !== null) {
    for (const { name, path } of ruleToolNames(config.stepRules)) {
      if (known.includes(name)) continue;
      const have = known.length > 0 ? `its tools are ${known.join(", ")}` : "it has no tools";
      context.addIssue({ code: "custom", path, message: `"${name}" is not one of this agent's tools (${have})` });
    }
  }
  if (config.providerOptions && isLiteralModel(config.model)) {
    for (const problem of checkModelOptions(config.model, config.providerOptions)) {
      context.addIssue({ code: "custom", path: ["providerOptions", problem.name], message: problem.message });
    }
  }
}

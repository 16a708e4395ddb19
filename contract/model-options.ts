import type { ModelOptionName, ModelOptionSpec } from "./models";

/**
 * Which provider options a model accepts (GET /api/models lists them per model; an agent may set
 * only those). Plain data, so the inspector and the agent's save-time check read the same rules
 * the server does. They go by model id, so a model the price catalog does not list (a new
 * snapshot) still gets them. How the options reach a provider's client is providers/model-options.ts's.
 */

/** An agent's provider options, by Trellis name (contract/models.ts MODEL_OPTION_NAMES). */
export interface AgentProviderOptions {
  reasoningEffort?: string;
  thinkingBudget?: number;
}

interface OptionRule {
  provider: string;
  model: RegExp;
  options: ModelOptionSpec[];
}

const EFFORT_LABEL = "Reasoning effort";
const BUDGET_LABEL = "Thinking budget (tokens)";

const RULES: OptionRule[] = [
  // GPT-5 reasoning models take "minimal" too; the chat snapshots (gpt-5-chat) do not reason.
  {
    provider: "openai",
    model: /^gpt-5(?!.*chat)/,
    options: [
      { name: "reasoningEffort", label: EFFORT_LABEL, kind: "select", values: ["minimal", "low", "medium", "high"] },
    ],
  },
  {
    provider: "openai",
    model: /^o[1-9]/,
    options: [{ name: "reasoningEffort", label: EFFORT_LABEL, kind: "select", values: ["low", "medium", "high"] }],
  },
  // Extended thinking: Claude 3.7 Sonnet and the Claude 4 family; Anthropic's minimum budget is 1024.
  {
    provider: "anthropic",
    model: /^claude-(3-7-sonnet|(sonnet|opus|haiku)-4|4)/,
    options: [{ name: "thinkingBudget", label: BUDGET_LABEL, kind: "number", min: 1024, max: 64_000 }],
  },
  {
    provider: "google",
    model: /^gemini-2\.5-pro/,
    options: [{ name: "thinkingBudget", label: BUDGET_LABEL, kind: "number", min: 128, max: 32_768 }],
  },
  {
    provider: "google",
    model: /^gemini-2\.5-flash/,
    options: [{ name: "thinkingBudget", label: BUDGET_LABEL, kind: "number", min: 0, max: 24_576 }],
  },
];

function split(modelId: string): { provider: string; model: string } {
  const slash = modelId.indexOf("/");
  return slash < 0
    ? { provider: modelId, model: "" }
    : { provider: modelId.slice(0, slash), model: modelId.slice(slash + 1) };
}

/** The provider options a model accepts; none for models without reasoning controls (and the offline model). */
export function modelOptionSpecs(modelId: string): ModelOptionSpec[] {
  const { provider, model } = split(modelId);
  return RULES.find((rule) => rule.provider === provider && rule.model.test(model))?.options ?? [];
}

/**
 * Why these options do not fit the model, one message per option, each naming the model; empty
 * when they all fit.
 */
export function checkModelOptions(
  modelId: string,
  options: AgentProviderOptions,
): Array<{ name: ModelOptionName; message: string }> {
  const specs = modelOptionSpecs(modelId);
  const problems: Array<{ name: ModelOptionName; message: string }> = [];
  for (const [name, value] of Object.entries(options) as Array<[ModelOptionName, unknown]>) {
    if (value === undefined) continue;
    const spec = specs.find((each) => each.name === name);
    if (!spec) {
      const accepted =
        specs.length > 0
          ? ` (it accepts ${specs.map((each) => each.name).join(", ")})`
          : " (it takes no provider options)";
      problems.push({ name, message: `${modelId} does not support ${name}${accepted}` });
    } else if (spec.kind === "select" && !spec.values.includes(String(value))) {
      problems.push({
        name,
        message: `${modelId} takes ${name} ${spec.values.join(", ")}; got ${JSON.stringify(value)}`,
      });
    } else if (spec.kind === "number" && (typeof value !== "number" || value < spec.min || value > spec.max)) {
      problems.push({
        name,
        message: `${modelId} takes ${name} from ${spec.min} to ${spec.max}; got ${JSON.stringify(value)}`,
      });
    }
  }
  return problems;
}

import type { ModelSummary } from "@/contract";

/** How many models the picker lists at once; typing narrows the rest. */
export const MODEL_MATCH_LIMIT = 100;

type Rankable = Pick<ModelSummary, "id" | "label" | "provider">;

/** The provider's own model name: `gpt-4o` of `openai/gpt-4o`. */
function modelName(model: Rankable): string {
  return model.id.slice(model.id.indexOf("/") + 1).toLowerCase();
}

/** The label without its provider prefix: `GPT-4o` of `OpenAI: GPT-4o`. */
function labelName(model: Rankable): string {
  const label = model.label.toLowerCase();
  const colon = label.indexOf(": ");
  return colon >= 0 ? label.slice(colon + 2) : label;
}

/**
 * How well a model answers what was typed, lower first: 0 the exact id, 1 the exact model name or
 * label, 2 an id or name that starts with it, 3 a label that starts with it, 4 anywhere in id or
 * label; null when it matches nowhere. So `gpt-4o` ranks `openai/gpt-4o` above `chatgpt-4o-latest`.
 */
function rank(model: Rankable, wanted: string): number | null {
  const id = model.id.toLowerCase();
  const name = modelName(model);
  const label = labelName(model);
  if (id === wanted) return 0;
  if (name === wanted || label === wanted) return 1;
  if (id.startsWith(wanted) || name.startsWith(wanted)) return 2;
  if (label.startsWith(wanted)) return 3;
  if (`${id} ${model.label.toLowerCase()}`.includes(wanted)) return 4;
  return null;
}

/** The models matching `query`, best first (list order breaks ties); every model, in order, when it is blank. */
export function matchModels<Model extends Rankable>(models: readonly Model[], query: string): Model[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return models.slice(0, MODEL_MATCH_LIMIT);
  return models
    .map((model, index) => ({ model, index, score: rank(model, wanted) }))
    .filter((entry): entry is { model: Model; index: number; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, MODEL_MATCH_LIMIT)
    .map((entry) => entry.model);
}

/**
 * Why a typed model id cannot be kept, or null when it can: it must be `provider/model` with a
 * provider the list knows (any model of that provider may be typed: Ollama and OpenAI-compatible
 * servers hold their own lists).
 */
export function typedModelProblem(typed: string, providers: ReadonlySet<string>): string | null {
  const id = typed.trim();
  const slash = id.indexOf("/");
  const provider = slash > 0 ? id.slice(0, slash) : "";
  const name = slash > 0 ? id.slice(slash + 1).trim() : "";
  if (!provider || !name || /\s/.test(id))
    return `"${id}" is not a model in the list; choose one, or type provider/model (for example openai/gpt-4o)`;
  if (!providers.has(provider))
    return `"${provider}" is not a model provider; use one of: ${[...providers].join(", ")}`;
  return null;
}

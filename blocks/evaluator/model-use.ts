import type { ModelUse } from "../model-use";
import type { EvaluatorConfig } from "./definition";
import { buildEvaluatorSystemPrompt } from "./evaluator-prompt";

/** An evaluator sends its metrics and the content; invalid scores get one repair call. */
export const evaluatorModelUse: ModelUse<EvaluatorConfig> = {
  model: (config) => config.model,
  promptTexts: (config) => [buildEvaluatorSystemPrompt(config.metrics), `Content to evaluate:\n\n${config.content}`],
  maxCalls: () => 2,
  maxOutputTokens: () => undefined,
};

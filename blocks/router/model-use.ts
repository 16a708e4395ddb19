import type { ModelUse } from "../model-use";
import type { RouterConfig } from "./definition";
import { buildRouterSystemPrompt } from "./router-prompt";

/** A router sends the description of its candidates and its prompt; an answer naming no candidate gets one correction call. */
export const routerModelUse: ModelUse<RouterConfig> = {
  model: (config) => config.model,
  promptTexts: (config, targets) => [buildRouterSystemPrompt(targets.filter((block) => block.enabled !== false)), config.prompt],
  maxCalls: () => 2,
  maxOutputTokens: () => undefined,
};

import type { ModelUse } from "../model-use";
import type { AgentConfig } from "./definition";

/** An agent sends its system prompt, its memories and the user prompt; with tools it calls the model up to `maxIterations` times. */
export const agentModelUse: ModelUse<AgentConfig> = {
  model: (config) => config.model,
  promptTexts(config) {
    const memories = Array.isArray(config.memories) ? config.memories.map((memory) => memory.content) : [config.memories ?? ""];
    return [config.systemPrompt ?? "", ...memories, config.userPrompt].filter((text) => text !== "");
  },
  maxCalls: (config) => (config.tools && config.tools.length > 0 ? config.maxIterations : 1),
  maxOutputTokens: (config) => config.maxTokens,
};

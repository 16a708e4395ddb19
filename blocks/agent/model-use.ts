import type { ModelUse } from "../model-use";
import type { AgentConfig } from "./definition";

/** An agent sends its system prompt, its memories and the user prompt; with tools it calls the model up to `maxIterations` times. */
export const agentModelUse: ModelUse<AgentConfig> = {
  model: (config) => config.model,
  promptTexts(config) {
    // Memories given by a reference arrive as whatever it resolved to: only their texts are sent.
    const memories: unknown[] = Array.isArray(config.memories)
      ? config.memories.map((memory: unknown) => (memory as { content?: unknown })?.content)
      : [config.memories];
    const texts = memories.map((memory) => (typeof memory === "string" ? memory : ""));
    return [config.systemPrompt ?? "", ...texts, config.userPrompt].filter((text) => text !== "");
  },
  maxCalls: (config) => (config.tools && config.tools.length > 0 ? config.maxIterations : 1),
  maxOutputTokens: (config) => config.maxTokens,
};

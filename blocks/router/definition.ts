import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { buildRouterSystemPrompt } from "./router-prompt";

export const routerConfigSchema = z.object({
  model: z.string().min(1, "choose a model").default("offline/echo"),
  prompt: z.string().min(1, "is required"),
  temperature: z.number().min(0).max(2).default(0),
  /** Extension: tried in order when the model fails at the provider (providers/model-fallbacks.ts). */
  fallbackModels: z.array(z.string().min(1, "choose a model")).max(3, "at most 3 fallback models").default([]),
});

export type RouterConfig = z.infer<typeof routerConfigSchema>;

export const routerDefinition = {
  type: "router",
  label: "Router",
  icon: "Split",
  category: "ai",
  description: "A model picks which one of the connected blocks runs next.",
  configSchema: routerConfigSchema,
  fields: [
    { key: "model", label: "Model", kind: "model", needs: "Choose a model" },
    { key: "prompt", label: "Routing instructions", kind: "prompt", needs: "Write the routing instructions" },
    { key: "temperature", label: "Temperature", kind: "number" },
  ],
  outputs: [
    { path: "selectedRoute", type: "string" },
    { path: "selectedPath", type: "object" },
    { path: "selectedPath.blockId", type: "string" },
    { path: "selectedPath.blockType", type: "string" },
    { path: "selectedPath.blockTitle", type: "string" },
    { path: "model", type: "string" },
    { path: "tokens", type: "object" },
    { path: "cost", type: "object" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  routing: "route",
  // It sends the description of its candidates and its prompt; an answer naming no candidate gets one correction call.
  modelUse: {
    model: (config) => config.model,
    promptTexts: (config, targets, typeDescription) => [
      buildRouterSystemPrompt(
        targets.filter((block) => block.enabled !== false),
        typeDescription,
      ),
      config.prompt,
    ],
    maxCalls: () => 2,
    maxOutputTokens: () => undefined,
  },
  docs: {
    config: "`model, prompt, temperature? (default 0), fallbackModels? (up to 3, tried in order on a provider error)`",
    output: "`selectedRoute` (target block id), `selectedPath{blockId,blockType,blockTitle}`, `model, tokens, cost`",
  },
} satisfies BlockDefinition<typeof routerConfigSchema>;

import { jsonSchema, Output } from "ai";
import { runModel, type ModelRegistry } from "@/providers";
import { normalizeResponseFormat } from "../agent/response-format";
import type { FunctionHostServices } from "./host-services";

/**
 * `services.agent` over the provider layer: one model call (no tools), its model span opened
 * under the service call's span, its tokens and cost returned so the Function block adds them
 * to its own usage.
 */
export function createProviderAgentService(
  models: ModelRegistry,
  defaults: { model: string } = { model: "offline/echo" },
): FunctionHostServices["agent"] {
  return async (prompt, options, call) => {
    const model = models.resolve(options.model ?? defaults.model);
    const schema = normalizeResponseFormat(options.responseFormat);
    const result = await runModel({
      model,
      system: options.systemPrompt,
      messages: [{ role: "user", content: prompt }],
      temperature: options.temperature,
      maxOutputTokens: options.maxTokens,
      output: schema ? Output.object({ schema: jsonSchema(schema) }) : undefined,
      hooks: { signal: call.signal, startSpan: call.startSpan, budget: call.budget },
    });
    const answer = { content: result.text, model: model.id, usage: result.usage };
    return result.output === undefined ? answer : { ...answer, data: result.output };
  };
}

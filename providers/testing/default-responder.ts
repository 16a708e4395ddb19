import { countTokens } from "../token-counter";
import { valueFromSchema } from "../offline/json-from-schema";
import { routeCandidates } from "../offline/route-choice";
import { pickMentionedRoute } from "./mentioned-route";
import type { ParsedLlmRequest, ScriptedResponse } from "./scripted-response";

/**
 * What the server answers when no response is queued, good enough for browser tests that point a
 * provider's base URL at it: structured output gets the schema's smallest value, a routing prompt
 * gets the candidate its request mentions first (e.g. "support"), and anything else an echo of the
 * last user message streamed in several chunks. A request that forces a tool (providers enforce a
 * forced tool choice) gets a call of it with the smallest arguments its schema allows. A request
 * that asks the model to reason is answered with DEFAULT_REASONING_TOKENS reported as reasoning,
 * as a reasoning model's provider does.
 */
export function defaultResponse(request: ParsedLlmRequest, delayMs: number): ScriptedResponse {
  const answer = defaultAnswer(request, delayMs);
  if (!request.reasoningRequested || (answer.kind !== "text" && answer.kind !== "tool-calls")) return answer;
  const written = answer.kind === "text" ? answer.text : JSON.stringify(answer.calls.map((call) => call.arguments));
  const completion = countTokens(written) + DEFAULT_REASONING_TOKENS;
  return {
    ...answer,
    usage: { prompt: countTokens(request.allText), completion, reasoning: DEFAULT_REASONING_TOKENS },
  };
}

/** Reasoning tokens a default answer reports when the request asked for reasoning. */
export const DEFAULT_REASONING_TOKENS = 64;

function defaultAnswer(request: ParsedLlmRequest, delayMs: number): ScriptedResponse {
  if (request.forcedTool)
    return {
      kind: "tool-calls",
      calls: [{ name: request.forcedTool.name, arguments: valueFromSchema(request.forcedTool.parameters) }],
    };
  if (request.jsonSchema !== undefined) return { kind: "json", value: valueFromSchema(request.jsonSchema) };
  const candidates = routeCandidates(request.systemText);
  if (candidates.length > 0)
    return { kind: "text", text: pickMentionedRoute(candidates, request.userTexts.join("\n")) };
  if (request.endsWithToolResult) return { kind: "text", text: "I used the tools and here is the answer.", delayMs };
  return { kind: "text", text: `Echo: ${request.userTexts.at(-1) ?? ""}`, delayMs };
}

import { valueFromSchema } from "../offline/json-from-schema";
import { pickRoute, routeCandidates } from "../offline/offline-responder";
import type { ParsedLlmRequest, ScriptedResponse } from "./scripted-response";

/**
 * What the server answers when no response is queued, good enough for browser tests that point a
 * provider's base URL at it: structured output gets the schema's smallest value, a routing prompt
 * gets the candidate its request mentions first (e.g. "support"), and anything else an echo of the
 * last user message streamed in several chunks.
 */
export function defaultResponse(request: ParsedLlmRequest, delayMs: number): ScriptedResponse {
  if (request.jsonSchema !== undefined) return { kind: "json", value: valueFromSchema(request.jsonSchema) };
  const candidates = routeCandidates(request.systemText);
  if (candidates.length > 0) return { kind: "text", text: pickRoute(candidates, request.userTexts.join("\n")) };
  if (request.endsWithToolResult) return { kind: "text", text: "I used the tools and here is the answer.", delayMs };
  return { kind: "text", text: `Echo: ${request.userTexts.at(-1) ?? ""}`, delayMs };
}

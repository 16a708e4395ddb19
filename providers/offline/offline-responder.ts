import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { valueFromSchema } from "./json-from-schema";
import { metricsOfSchema, REASONS_PROPERTY, scoreMetrics } from "./metric-scores";
import { chooseRoute, routeCandidates } from "./route-choice";

/**
 * What the offline model answers, decided from the prompt alone (no randomness, no network):
 * - JSON asked for with bounded numbers only (the evaluator's scores): a score per metric from
 *   simple text features of the content (metric-scores.ts);
 * - other structured output: the smallest JSON value matching the schema;
 * - a routing prompt (candidates as `ID:` / `Title:` / `Description:` lines): the candidate whose
 *   words overlap most with the request (route-choice.ts);
 * - otherwise: `Echo: ` and the last user message, with a line saying it is not a language model.
 */

/** Ends every free-text answer, so no one mistakes the echo for a model's reply. */
export const NOT_A_LANGUAGE_MODEL_NOTE = "[offline model, not a language model]";

/** The prompt as plain text: every message's text parts (tool calls and results as JSON), one per line. */
export function promptToText(prompt: LanguageModelV4Prompt): string {
  const lines: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      lines.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") lines.push(part.text);
      else if (part.type === "tool-call") lines.push(JSON.stringify({ tool: part.toolName, input: part.input }));
      else if (part.type === "tool-result") lines.push(JSON.stringify({ tool: part.toolName, output: part.output }));
    }
  }
  return lines.join("\n");
}

function textOf(prompt: LanguageModelV4Prompt, role: "system" | "user"): string[] {
  const texts: string[] = [];
  for (const message of prompt) {
    if (message.role !== role) continue;
    if (message.role === "system") texts.push(message.content);
    else for (const part of message.content) if (part.type === "text") texts.push(part.text);
  }
  return texts;
}

/**
 * The most of a message the echo repeats. An echo is as long as what it echoes, and each of its
 * words becomes a streamed delta, a stored event and a counted token: a 2 MiB message would make a
 * 2 MiB answer. Past this the echo says how much it left out.
 */
export const OFFLINE_ECHO_LIMIT_CHARS = 64 * 1024;

function echoed(text: string): string {
  if (text.length <= OFFLINE_ECHO_LIMIT_CHARS) return text;
  // Never cut between the halves of a surrogate pair (an emoji).
  const lastKept = text.charCodeAt(OFFLINE_ECHO_LIMIT_CHARS - 1);
  const kept = text.slice(
    0,
    lastKept >= 0xd800 && lastKept <= 0xdbff ? OFFLINE_ECHO_LIMIT_CHARS - 1 : OFFLINE_ECHO_LIMIT_CHARS,
  );
  return `${kept} […${(text.length - kept.length).toLocaleString("en-US")} more characters not echoed]`;
}

/** The evaluator's user message starts with this line (blocks/evaluator/handler.ts); it is not part of the content. */
const EVALUATED_CONTENT_HEADER = /^Content to evaluate:\s*/;

export function offlineAnswer(options: Pick<LanguageModelV4CallOptions, "prompt" | "responseFormat">): string {
  const format = options.responseFormat;
  const userTexts = textOf(options.prompt, "user");
  if (format?.type === "json") {
    const metrics = metricsOfSchema(format.schema);
    if (metrics) {
      const scores = scoreMetrics(metrics, (userTexts[0] ?? "").replace(EVALUATED_CONTENT_HEADER, ""));
      const properties = (format.schema as { properties: Record<string, unknown> }).properties;
      // Honest about what the numbers are: text features, not a judgement.
      const reasons =
        REASONS_PROPERTY in properties
          ? {
              [REASONS_PROPERTY]:
                "Offline scores from text features (length, structure, tone and overlap with each metric's words), not a language model's judgement.",
            }
          : {};
      return JSON.stringify({ ...reasons, ...scores });
    }
    return JSON.stringify(format.schema ? valueFromSchema(format.schema) : {});
  }
  const candidates = routeCandidates(textOf(options.prompt, "system").join("\n"));
  if (candidates.length > 0) return chooseRoute(candidates, userTexts.join("\n"));
  const last = options.prompt.at(-1);
  if (last?.role === "tool") return `Tool results: ${echoed(promptToText([last]))}\n\n${NOT_A_LANGUAGE_MODEL_NOTE}`;
  return `Echo: ${echoed(userTexts.at(-1) ?? "")}\n\n${NOT_A_LANGUAGE_MODEL_NOTE}`;
}

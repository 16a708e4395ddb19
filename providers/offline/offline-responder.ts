import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { valueFromSchema } from "./json-from-schema";

/**
 * What the offline model answers, decided from the prompt alone (no randomness, no network):
 * - structured output requested: the smallest JSON value matching the schema;
 * - a routing prompt (lines `ID: <block id>` with `Title: <name>`): the candidate mentioned first
 *   in the user's text (see pickRoute), else the first candidate;
 * - otherwise: `Echo: ` and the last user message.
 */

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

export interface RouteCandidate {
  id: string;
  title: string;
}

/** Candidates of a routing prompt: `ID: <id>` lines, each optionally followed by `Type:` and `Title:` lines. */
export function routeCandidates(systemText: string): RouteCandidate[] {
  const candidates: RouteCandidate[] = [];
  const pattern = /^ID: *(\S+) *$(?:\r?\n^Type: *.*$)?(?:\r?\n^Title: *(.*)$)?/gm;
  for (const match of systemText.matchAll(pattern)) candidates.push({ id: match[1] ?? "", title: (match[2] ?? "").trim() });
  return candidates.filter((candidate) => candidate.id);
}

const GENERIC_WORDS = new Set(["agent", "block", "route", "path", "the"]);

function namesOf(candidate: RouteCandidate): string[] {
  const words = candidate.title.split(/\s+/).filter((word) => word.length >= 4 && !GENERIC_WORDS.has(word.toLowerCase()));
  return [candidate.id, candidate.title, ...words].filter(Boolean);
}

/**
 * The candidate mentioned first in the request, by id, by name or by a distinctive word of its
 * name ("support" for "Support Agent"); the first candidate when none is mentioned.
 */
export function pickRoute(candidates: RouteCandidate[], request: string): string {
  const haystack = request.toLowerCase();
  let best: { id: string; at: number } | undefined;
  for (const candidate of candidates) {
    for (const name of namesOf(candidate)) {
      const at = haystack.search(new RegExp(`\\b${name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`));
      if (at >= 0 && (!best || at < best.at)) best = { id: candidate.id, at };
    }
  }
  return best?.id ?? candidates[0]?.id ?? "";
}

export function offlineAnswer(options: Pick<LanguageModelV4CallOptions, "prompt" | "responseFormat">): string {
  const format = options.responseFormat;
  if (format?.type === "json") return JSON.stringify(format.schema ? valueFromSchema(format.schema) : {});
  const candidates = routeCandidates(textOf(options.prompt, "system").join("\n"));
  const userTexts = textOf(options.prompt, "user");
  if (candidates.length > 0) return pickRoute(candidates, userTexts.join("\n"));
  const last = options.prompt.at(-1);
  if (last?.role === "tool") return `Tool results: ${promptToText([last])}`;
  return `Echo: ${userTexts.at(-1) ?? ""}`;
}

import { parseExpression, parseReferences } from "@/executor";
import { ConversionError, objectAt, optionalString } from "./document-builder";

/** One reroute rule of an MCP-bridge agent, in the list form (the map form `{ on: { trigger: target } }` becomes one rule per trigger). */
export interface RerouteRule {
  path: string;
  on: string[];
  target?: string;
  ask?: Record<string, unknown>;
}

/** `reroute` as written: one rule, a list of rules, or `{ on: { "tool:x:error": "agent" } }`. */
export function rerouteRules(value: unknown, path: string): RerouteRule[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((raw, index) => {
    const where = Array.isArray(value) ? `${path}[${index}]` : path;
    const rule = objectAt(raw, where);
    if (rule.on && typeof rule.on === "object" && !Array.isArray(rule.on)) {
      return Object.entries(rule.on as Record<string, unknown>).map(([trigger, target]) => ({
        path: `${where}.on.${trigger}`,
        on: [trigger],
        target: optionalString(target, `${where}.on.${trigger}`),
      }));
    }
    const on = typeof rule.on === "string" ? [rule.on] : rule.on;
    if (!Array.isArray(on) || on.some((trigger) => typeof trigger !== "string") || on.length === 0) {
      throw new ConversionError(
        `${where}.on`,
        `${where}.on must list the triggers (tool:<name>:success, tool:<name>:error or a tag) that fire the rule`,
      );
    }
    const target = optionalString(rule.target, `${where}.target`);
    const ask = rule.ask === undefined ? undefined : objectAt(rule.ask, `${where}.ask`);
    if (!target && !ask) throw new ConversionError(where, `${where} needs a target or an ask`);
    return [{ path: where, on: on as string[], target, ask }];
  });
}

/** `tool:<name>:success|error`, or null for a tag the model emits (`<reroute>PLAN_FOUND</reroute>`). */
export function toolTrigger(trigger: string): { tool: string; outcome: "success" | "error" } | null {
  const match = /^tool:(.+):(success|error)$/.exec(trigger.trim());
  return match ? { tool: match[1]!, outcome: match[2] as "success" | "error" } : null;
}

const KEYWORDS: Record<string, string> = {
  and: "&&",
  or: "||",
  not: "!",
  True: "true",
  False: "false",
  None: "null",
  true: "true",
  false: "false",
  null: "null",
};
const TOKEN =
  /\s+|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\$\{[^}]+\}|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*|\d+(?:\.\d+)?|===|!==|==|!=|<=|>=|&&|\|\||[<>!+\-*/%(),?:[\]]/y;

/**
 * A `when` condition (evaluated by the bridge against the workflow context) in Trellis's
 * expression language: `and`/`or`/`not` and Python's literals become `&& || ! true false null`,
 * and each name becomes a reference through `resolveName` (an initial-context field, an agent's
 * returned field). Answers null with the reason when the text does not translate or parse.
 */
export function translateWhen(
  text: string,
  resolveName: (path: string) => string,
): { expression: string } | { problem: string } {
  let expression = "";
  TOKEN.lastIndex = 0;
  let index = 0;
  while (index < text.length) {
    TOKEN.lastIndex = index;
    const match = TOKEN.exec(text);
    if (!match) return { problem: `it has '${text.slice(index, index + 10)}', which Trellis expressions do not know` };
    const token = match[0];
    index += token.length;
    if (KEYWORDS[token] !== undefined) expression += ` ${KEYWORDS[token]} `;
    else if (token.startsWith("${")) expression += resolveName(token.slice(2, -1).trim());
    else if (/^[A-Za-z_]/.test(token)) expression += resolveName(token);
    else expression += token;
  }
  const cleaned = expression.replace(/\s+/g, " ").trim();
  const problem = expressionProblem(cleaned);
  return problem
    ? { problem: `'${cleaned}' does not parse as a Trellis expression: ${problem}` }
    : { expression: cleaned };
}

/** Why an expression with references does not parse, or null when it does (each reference stands in as a number, as the save check does). */
export function expressionProblem(text: string): string | null {
  // Built in one pass: slicing the whole text once per reference was quadratic in a long condition.
  const parts: string[] = [];
  let at = 0;
  for (const token of parseReferences(text)) {
    parts.push(text.slice(at, token.start), "0".padEnd(token.end - token.start));
    at = token.end;
  }
  parts.push(text.slice(at));
  const placeholder = parts.join("");
  try {
    parseExpression(placeholder);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The expression text a number comparison names (`quality_score < 90`): such initial-context fields are numbers. */
export function numericNames(text: string): Set<string> {
  const names = new Set<string>();
  // Each pattern starts only where a name or number starts: from every letter of a long name, the scan to its end was quadratic.
  for (const match of text.matchAll(/(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.]*)\s*(?:<=|>=|<|>)\s*-?\d/g))
    names.add(match[1]!);
  for (const match of text.matchAll(/(?<![0-9.])-?\d+(?:\.\d+)?\s*(?:<=|>=|<|>)\s*([A-Za-z_][A-Za-z0-9_.]*)/g))
    names.add(match[1]!);
  return names;
}

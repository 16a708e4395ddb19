/**
 * The syntax of references inside config strings (docs/CONTRACT.md section 2), with no runtime in it:
 * the canvas uses it for completion and node badges, the validator for save-time checks, the
 * engine for resolution.
 *
 * `<Root.path.to[0].field>`: the root is a block name (matched ignoring case and spaces), a block
 * id, `start`, `variable`, `loop` or `parallel`; at least one field or index must follow, so XML-like
 * prompt tags such as `<document>` or `<a href="x">` are left alone. Block names containing a dot
 * can be referenced by their id. `{{NAME}}` is a stored secret or an allowed environment variable.
 */

export type PathSegment = string | number;

export interface BlockReference {
  kind: "block";
  /** The text as written, `<Support Agent.content>`. */
  text: string;
  /** The root as written (`Support Agent`). */
  root: string;
  path: PathSegment[];
  start: number;
  end: number;
}

export interface EnvReference {
  kind: "env";
  text: string;
  name: string;
  start: number;
  end: number;
}

export type ReferenceToken = BlockReference | EnvReference;

/** A reference found in a block's config, with the config field it sits in (`userPrompt`, `branches[0].expression`). */
export type ConfigReference = ReferenceToken & { field: string };

const NAME_PART = "[\\p{L}\\p{N}_][\\p{L}\\p{N}_\\- ]*";
const SEGMENT = `(?:\\.[\\p{L}\\p{N}_\\-][\\p{L}\\p{N}_\\- ]*|\\[-?\\d+\\])`;
const BLOCK_REFERENCE_SOURCE = `<(${NAME_PART})(${SEGMENT}+)>`;
const ENV_REFERENCE_SOURCE = "\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\}\\}";
const ANY_REFERENCE = new RegExp(`${BLOCK_REFERENCE_SOURCE}|${ENV_REFERENCE_SOURCE}`, "gu");
const WHOLE_REFERENCE = new RegExp(`^\\s*(?:${BLOCK_REFERENCE_SOURCE}|${ENV_REFERENCE_SOURCE})\\s*$`, "u");
const PATH_SEGMENT = /\.([^.[\]]+)|\[(-?\d+)\]/gu;

/** Reserved roots; a block may not be named any of these (ignoring case and spaces). */
export const RESERVED_ROOTS = ["variable", "loop", "parallel"] as const;

/** Cheap test used on hot paths before running any regular expression. */
export function mayContainReference(text: string): boolean {
  return text.includes("<") || text.includes("{{");
}

export function parsePath(pathText: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const match of pathText.matchAll(PATH_SEGMENT)) {
    if (match[1] !== undefined) segments.push(match[1].trim());
    else segments.push(Number(match[2]));
  }
  return segments;
}

export function formatPath(path: ReadonlyArray<PathSegment>): string {
  return path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join("");
}

function toToken(match: RegExpMatchArray): ReferenceToken {
  const start = match.index ?? 0;
  const text = match[0];
  if (match[3] !== undefined) return { kind: "env", text: text.trim(), name: match[3], start, end: start + text.length };
  return { kind: "block", text: text.trim(), root: match[1]!.trim(), path: parsePath(match[2]!), start, end: start + text.length };
}

/** Every reference in one string, in order. */
export function parseReferences(text: string): ReferenceToken[] {
  if (!mayContainReference(text)) return [];
  return Array.from(text.matchAll(ANY_REFERENCE), toToken);
}

/** The one reference a string consists of (surrounding whitespace aside), or null. */
export function wholeReference(text: string): ReferenceToken | null {
  if (!mayContainReference(text)) return null;
  const match = WHOLE_REFERENCE.exec(text);
  if (!match) return null;
  const token = toToken(match);
  return { ...token, start: text.indexOf(token.text), end: text.indexOf(token.text) + token.text.length };
}

export function isWholeReference(value: unknown): boolean {
  return typeof value === "string" && wholeReference(value) !== null;
}

function walk(value: unknown, field: string, found: ConfigReference[]): void {
  if (typeof value === "string") {
    for (const token of parseReferences(value)) found.push({ ...token, field });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${field}[${index}]`, found));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) walk(item, field ? `${field}.${key}` : key, found);
  }
}

/** Every reference in a config, recursively through objects and arrays. */
export function extractReferences(config: unknown): ConfigReference[] {
  const found: ConfigReference[] = [];
  walk(config, "", found);
  return found;
}

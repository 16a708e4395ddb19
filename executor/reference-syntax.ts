/**
 * The syntax of references inside config strings (docs/CONTRACT.md section 2), with no runtime in it:
 * the canvas uses it for completion and node badges, the validator for save-time checks, the
 * engine for resolution.
 *
 * `<Root.path.to[0].field>`: the root is a block name (matched ignoring case and spaces), a block
 * id, `start`, `variable`, `loop` or `parallel`; at least one field or index must follow, so XML-like
 * prompt tags such as `<document>` or `<a href="x">` are left alone. Block names containing a dot
 * can be referenced by their id. `{{NAME}}` is a stored secret or an allowed environment variable.
 *
 * Extension, for merging after exclusive branches: `<Sales Agent.content ?? Support Agent.content>`
 * reads the first alternative whose block ran and has a (non-null) value at its path, and may end
 * in one literal default (`?? "none"`, `?? 0`, `?? true`, `?? null`) used when none has.
 */

export type PathSegment = string | number;

/** One alternative of a `??` reference. */
export interface ReferenceAlternative {
  /** The root as written (`Support Agent`). */
  root: string;
  path: PathSegment[];
  /** This alternative alone as a reference, `<Support Agent.content>`, for messages. */
  text: string;
}

export type FallbackLiteral = string | number | boolean | null;

export interface BlockReference {
  kind: "block";
  /** The text as written, `<Support Agent.content>`. */
  text: string;
  /** The root as written (`Support Agent`); with `??`, the first alternative's. */
  root: string;
  path: PathSegment[];
  start: number;
  end: number;
  /** Extension: the alternatives after `??` (`<A.x ?? B.y>`), tried in order when the ones before have no value. */
  fallbacks?: ReferenceAlternative[];
  /** Extension: the literal after the last `??` (`<A.x ?? "none">`), the value when no alternative has one. */
  fallbackDefault?: { value: FallbackLiteral };
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
const LITERAL = `"(?:[^"\\\\\\n]|\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?\\d+(?:\\.\\d+)?|true|false|null`;
const ALTERNATIVE = `${NAME_PART}${SEGMENT}+`;
// A literal default comes last, so an alternative never starts where `<digits>.<digits> >` would be the default.
const FALLBACKS = `(?:[ \\t]*\\?\\?[ \\t]*(?!(?:${LITERAL})[ \\t]*>)${ALTERNATIVE})*`;
const DEFAULT = `(?:[ \\t]*\\?\\?[ \\t]*(${LITERAL})[ \\t]*)?`;
const BLOCK_REFERENCE_SOURCE = `<(${NAME_PART})(${SEGMENT}+)(${FALLBACKS})${DEFAULT}>`;
const ONE_ALTERNATIVE = new RegExp(`^(${NAME_PART})(${SEGMENT}+)$`, "u");
const ALTERNATIVES_PART = new RegExp(`^<(${NAME_PART}${SEGMENT}+${FALLBACKS})`, "u");
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
  return path
    .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join("");
}

function alternativeOf(rootText: string, pathText: string): ReferenceAlternative {
  const root = rootText.trim();
  const path = parsePath(pathText);
  return { root, path, text: `<${root}${pathText.trim()}>` };
}

function fallbacksOf(text: string): ReferenceAlternative[] {
  return text
    .split("??")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const match = ONE_ALTERNATIVE.exec(part)!;
      return alternativeOf(match[1]!, match[2]!);
    });
}

function toToken(match: RegExpMatchArray): ReferenceToken {
  const start = match.index ?? 0;
  const text = match[0];
  if (match[5] !== undefined)
    return { kind: "env", text: text.trim(), name: match[5], start, end: start + text.length };
  const token: BlockReference = {
    kind: "block",
    text: text.trim(),
    root: match[1]!.trim(),
    path: parsePath(match[2]!),
    start,
    end: start + text.length,
  };
  const fallbacks = fallbacksOf(match[3] ?? "");
  if (fallbacks.length > 0) token.fallbacks = fallbacks;
  if (match[4] !== undefined) token.fallbackDefault = { value: JSON.parse(match[4]) as FallbackLiteral };
  return token;
}

/** Every block alternative of a reference, the first included: one for a plain reference. */
export function referenceAlternatives(reference: BlockReference): ReferenceAlternative[] {
  const first = {
    root: reference.root,
    path: reference.path,
    text:
      reference.fallbacks || reference.fallbackDefault
        ? `<${reference.root}${formatPathSuffix(reference.path)}>`
        : reference.text,
  };
  return [first, ...(reference.fallbacks ?? [])];
}

function formatPathSuffix(path: ReadonlyArray<PathSegment>): string {
  return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}

/**
 * The reference's text with each alternative's root replaced by `rename(root)` where that gives
 * one; the paths, spacing and default stay as written.
 */
export function renameAlternativeRoots(
  reference: BlockReference,
  rename: (root: string) => string | undefined,
): string {
  // Only the alternatives are split at `??`: a default string may hold `??` too.
  const head = ALTERNATIVES_PART.exec(reference.text)?.[1] ?? reference.text.slice(1, -1);
  const tail = reference.text.slice(head.length + 1);
  const parts = head.split(/(\?\?)/);
  let changed = false;
  const rewritten = parts.map((part) => {
    if (part === "??") return part;
    const match = ONE_ALTERNATIVE.exec(part.trim());
    if (!match) return part;
    const root = rename(match[1]!.trim());
    if (root === undefined) return part;
    changed = true;
    const leading = part.slice(0, part.length - part.trimStart().length);
    const trailing = part.slice(part.trimEnd().length);
    return `${leading}${root}${match[2]!.trim()}${trailing}`;
  });
  return changed ? `<${rewritten.join("")}${tail}` : reference.text;
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

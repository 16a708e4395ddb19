import { ReferenceError } from "@/core";
import {
  mayContainReference,
  parseReferences,
  referenceAlternatives,
  wholeReference,
  type BlockReference,
  type ReferenceAlternative,
  type ReferenceToken,
} from "./reference-syntax";
import { readPath } from "./value-path";

export * from "./reference-syntax";
export { readPath } from "./value-path";

/**
 * Where reference roots come from. The engine supplies one per block execution; tests and the
 * canvas can supply their own. `root` returns the value the root names (a block's output, the
 * workflow variables, the loop frame) or throws a ReferenceError saying why there is none.
 */
export interface ReferenceSource {
  /** With `??`, called once per alternative: `reference` then carries that alternative's root, path and text, and its `fallbacks`. */
  root(reference: BlockReference): unknown;
  /** `{{NAME}}`: a stored secret or an allowed environment variable; undefined when the workflow may not read one. */
  env(name: string): string | undefined;
}

export interface ResolveOptions {
  /** Called with every secret inserted (its name and value), so traces and events can mask it. */
  onSecret?(name: string, value: string): void;
  /**
   * Config fields holding expressions (`branches[].expression`, array indexes written `[]`):
   * references there become expression literals (`"text"`, `42`, `{"a":1}`), so the expression
   * language sees values, never code.
   */
  expressionFields?: ReadonlySet<string>;
  /** Top-level fields substituted by their block type (see BlockTypeInfo.fieldResolvers). */
  fieldResolvers?: Readonly<
    Record<
      string,
      (
        text: string,
        resolve: (reference: ReferenceToken) => unknown,
        config: Readonly<Record<string, unknown>>,
      ) => string
    >
  >;
}

/** The error of a `{{NAME}}` the run cannot read: never a hint of what the server's environment holds. */
export function missingSecretMessage(name: string): string {
  return `{{${name}}}: no secret named ${name}: add it on the Secrets page, or list it in TRELLIS_WORKFLOW_ENV`;
}

function resolveToken(token: ReferenceToken, source: ReferenceSource, options: ResolveOptions): unknown {
  if (token.kind === "env") {
    const value = source.env(token.name);
    if (value === undefined) throw new ReferenceError(missingSecretMessage(token.name));
    options.onSecret?.(token.name, value);
    return value;
  }
  if (token.fallbacks || token.fallbackDefault) return resolveFallbacks(token, source);
  return readAlternative(token, token, source);
}

function readAlternative(alternative: ReferenceAlternative, token: BlockReference, source: ReferenceSource): unknown {
  const rootValue = source.root({ ...token, root: alternative.root, path: alternative.path, text: alternative.text });
  const result = readPath(rootValue, alternative.path);
  if (!result.found) {
    const available = result.available.length ? ` (available there: ${result.available.join(", ")})` : "";
    throw new ReferenceError(`${alternative.text}: '${alternative.root}' has no value at '${result.at}'${available}`);
  }
  // Never pass on `undefined`: a field present but unset reads as null.
  return result.value === undefined ? null : result.value;
}

/**
 * `<A.x ?? B.y ?? "none">`: the first alternative that resolves to something other than null; an
 * alternative whose block was skipped, has not run or lacks the path is passed over. When none
 * has a value: the default if written, null if some alternative did resolve (to null), otherwise
 * an error naming every alternative and why it has none.
 */
function resolveFallbacks(token: BlockReference, source: ReferenceSource): unknown {
  const reasons: string[] = [];
  let sawNull = false;
  for (const alternative of referenceAlternatives(token)) {
    let value: unknown;
    try {
      value = readAlternative(alternative, token, source);
    } catch (error) {
      if (!(error instanceof ReferenceError)) throw error;
      reasons.push(error.message);
      continue;
    }
    if (value !== null) return value;
    sawNull = true;
  }
  if (token.fallbackDefault) return token.fallbackDefault.value;
  if (sawNull) return null;
  throw new ReferenceError(`${token.text}: no alternative has a value: ${reasons.join("; ")}`);
}

/** How a value reads inside longer text: objects and arrays as JSON, null as `null`. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function literalOf(value: unknown): string {
  return JSON.stringify(value ?? null) ?? "null";
}

/** Resolves the references in one string. A string that is exactly one reference gets the raw value. */
export function resolveText(text: string, source: ReferenceSource, options: ResolveOptions = {}): unknown {
  if (!mayContainReference(text)) return text;
  const whole = wholeReference(text);
  if (whole) return resolveToken(whole, source, options);
  const tokens = parseReferences(text);
  if (tokens.length === 0) return text;
  let result = "";
  let last = 0;
  for (const token of tokens) {
    result += text.slice(last, token.start) + textOf(resolveToken(token, source, options));
    last = token.end;
  }
  return result + text.slice(last);
}

/**
 * A reference that cannot be resolved becomes `unresolved("<why>")`, which throws only if the
 * expression reaches it: `<loop.index> == 0 || <Step.value> < 3` works before Step first runs, and
 * a condition's later branches may name blocks skipped on this path.
 */
function literalOrDeferredError(token: ReferenceToken, source: ReferenceSource, options: ResolveOptions): string {
  try {
    return literalOf(resolveToken(token, source, options));
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    return `unresolved(${JSON.stringify(error.message)})`;
  }
}

/**
 * Resolves references in an expression: each becomes a literal. A reference written inside quotes
 * (`"<Agent.content>" == "yes"`) is replaced together with its quotes, as people often write it so.
 */
export function resolveExpressionText(text: string, source: ReferenceSource, options: ResolveOptions = {}): string {
  const tokens = parseReferences(text);
  if (tokens.length === 0) return text;
  let result = "";
  let last = 0;
  for (const token of tokens) {
    let start = token.start;
    let end = token.end;
    const before = text[start - 1];
    if ((before === '"' || before === "'") && text[end] === before && start - 1 >= last) {
      start -= 1;
      end += 1;
    }
    result += text.slice(last, start) + literalOrDeferredError(token, source, options);
    last = end;
  }
  return result + text.slice(last);
}

function resolveAt(
  value: unknown,
  field: string,
  source: ReferenceSource,
  options: ResolveOptions,
  root: Readonly<Record<string, unknown>>,
): unknown {
  if (typeof value === "string") {
    const custom =
      options.fieldResolvers && Object.hasOwn(options.fieldResolvers, field)
        ? options.fieldResolvers[field]
        : undefined;
    if (custom) return custom(value, (token) => resolveToken(token, source, options), root);
    if (options.expressionFields?.has(field)) return resolveExpressionText(value, source, options);
    return resolveText(value, source, options);
  }
  if (Array.isArray(value)) return value.map((item) => resolveAt(item, `${field}[]`, source, options, root));
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      result[key] = resolveAt(item, field ? `${field}.${key}` : key, source, options, root);
    return result;
  }
  return value;
}

/** Resolves every reference in a config, recursively through objects and arrays. */
export function resolveConfig<T>(config: T, source: ReferenceSource, options: ResolveOptions = {}): T {
  const root = config !== null && typeof config === "object" && !Array.isArray(config) ? config : {};
  return resolveAt(config, "", source, options, root as Readonly<Record<string, unknown>>) as T;
}

/** True when any string inside the value may hold a reference; lets the engine skip resolution. */
export function containsReferences(value: unknown): boolean {
  if (typeof value === "string") return mayContainReference(value);
  if (Array.isArray(value)) return value.some(containsReferences);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsReferences);
  return false;
}

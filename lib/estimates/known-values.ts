import { entryBlockOf } from "@/blocks";
import { normalizeBlockName, type WorkflowDocument } from "@/contract";
import {
  parseReferences,
  ReferenceError,
  resolveText,
  textOf,
  wholeReference,
  type BlockReference,
  type ReferenceSource,
} from "@/executor";

/** What is known before a run: the start input (as the start block outputs it) and the workflow's variables. */
export interface KnownScope {
  input: Record<string, unknown>;
  variables: Record<string, unknown>;
  /** The start block's id and name, normalised: the roots that read the input. */
  startRoots: ReadonlySet<string>;
}

export function knownScope(
  document: Pick<WorkflowDocument, "blocks" | "variables">,
  input: Record<string, unknown>,
): KnownScope {
  const start = entryBlockOf(document.blocks);
  const startRoots = new Set(start ? [normalizeBlockName(start.id), normalizeBlockName(start.name)] : []);
  return { input, variables: document.variables ?? {}, startRoots };
}

/**
 * Reads only the start input and the variables. Anything else (an upstream block's output, a loop
 * item, a secret) is unknown before the run: it throws, and the caller counts it as unknown. A
 * secret is never read, so no estimate can show or measure one.
 */
function knownSource(scope: KnownScope): ReferenceSource {
  return {
    root(reference: BlockReference) {
      const root = normalizeBlockName(reference.root);
      if (scope.startRoots.has(root)) return scope.input;
      if (root === "variable") return scope.variables;
      throw new ReferenceError(`${reference.text} is not known before the run`);
    },
    env: () => undefined,
  };
}

/** A config with what is known resolved; each reference that is not becomes "" and is counted. */
export interface KnownConfig {
  config: Record<string, unknown>;
  /** References whose value is only known once the run is under way. */
  unknownReferences: number;
}

export function resolveKnown(config: Record<string, unknown>, scope: KnownScope): KnownConfig {
  const source = knownSource(scope);
  let unknownReferences = 0;
  const resolveOne = (text: string): unknown => {
    try {
      return resolveText(text, source);
    } catch (error) {
      // `{{NAME}}` lands here too (it is never read): unknown before the run, like an upstream output.
      if (!(error instanceof ReferenceError)) throw error;
      unknownReferences += 1;
      return undefined;
    }
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") {
      if (wholeReference(value)) return resolveOne(value) ?? "";
      const tokens = parseReferences(value);
      if (tokens.length === 0) return value;
      let result = "";
      let last = 0;
      for (const token of tokens) {
        const resolved = resolveOne(value.slice(token.start, token.end));
        result += value.slice(last, token.start) + (resolved === undefined ? "" : textOf(resolved));
        last = token.end;
      }
      return result + value.slice(last);
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return { config: walk(config) as Record<string, unknown>, unknownReferences };
}

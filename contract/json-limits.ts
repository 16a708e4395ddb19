/**
 * Limits on the shape of untrusted JSON (docs/CONTRACT.md section 5, "Input limits"), checked on
 * the text before it is parsed. Code that walks documents, configs and values recurses once per
 * level (reference extraction, config checks, the secret redactor, JSON.stringify itself), so a
 * few thousand levels overflow the stack; refusing deep text up front keeps all of them safe.
 */

/**
 * The deepest nesting accepted, counting the outermost object or array as 1. A workflow's own
 * structure takes 4 (document, blocks, block, config) and a JSON Schema nested ten objects deep
 * about 30 more, so no real workflow comes near it, while every recursion stays a few hundred
 * frames from the stack's end.
 */
export const MAX_JSON_DEPTH = 100;

export type JsonHazard =
  | { kind: "too_deep"; limit: number; path: string }
  /** An object key `__proto__`: JSON.parse keeps it as a field, but copying it (Object.assign, `a[key] = v`) replaces a prototype. */
  | { kind: "prototype_key"; path: string };

export interface JsonScanOptions {
  maxDepth?: number;
  /** Also report a `__proto__` key (for what users send; data fetched from elsewhere may keep them). */
  refusePrototypeKeys?: boolean;
}

interface Frame {
  array: boolean;
  /** The current item's index (arrays), or the current key's quoted text as [start, end) (objects). */
  index: number;
  keyStart: number;
  keyEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const PROTOTYPE_KEY = "__proto__";
/** `__proto__` written with every character escaped (`\u005f...`) is 54 characters; a longer key cannot be it. */
const LONGEST_ESCAPED_PROTOTYPE_KEY = PROTOTYPE_KEY.length * 6;
/** A path in a message keeps its start and end; the middle of a 100-level path says nothing more. */
const PATH_HEAD = 6;
const PATH_TAIL = 2;

function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  if (!raw.includes("\\")) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

function pathOf(text: string, frames: readonly Frame[]): string {
  const segments = frames.map((frame) =>
    frame.array ? `[${frame.index}]` : `.${keyText(text, frame.keyStart, frame.keyEnd)}`,
  );
  const shown =
    segments.length > PATH_HEAD + PATH_TAIL + 1
      ? [...segments.slice(0, PATH_HEAD), "…", ...segments.slice(-PATH_TAIL)]
      : segments;
  return shown.join("").replace(/^\./, "");
}

/** The index just past the string whose opening quote is at `start` (the text's end when it is not closed). */
function skipString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index += 2;
    else if (code === QUOTE) return index + 1;
    else index += 1;
  }
  return text.length;
}

/**
 * The first hazard in a JSON text, or null: nesting deeper than the limit, or (when asked) a
 * `__proto__` key. One pass, linear in the text, with a stack as deep as the limit; malformed
 * text is not judged here (JSON.parse reports it), only never mistaken for something deeper.
 * `path` is written as the contract writes issue paths (`blocks[1].config.data[0]`).
 */
export function findJsonHazard(text: string, options: JsonScanOptions = {}): JsonHazard | null {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const frames: Frame[] = [];
  let expectKey = false;
  for (let index = 0; index < text.length;) {
    const character = text[index];
    if (character === '"') {
      const end = skipString(text, index);
      const top = frames.at(-1);
      if (top && !top.array && expectKey) {
        top.keyStart = index;
        top.keyEnd = end;
        expectKey = false;
        const length = end - index - 2;
        if (options.refusePrototypeKeys && length >= PROTOTYPE_KEY.length && length <= LONGEST_ESCAPED_PROTOTYPE_KEY) {
          if (keyText(text, index, end) === PROTOTYPE_KEY) return { kind: "prototype_key", path: pathOf(text, frames) };
        }
      }
      index = end;
      continue;
    }
    if (character === "{" || character === "[") {
      if (frames.length >= maxDepth) return { kind: "too_deep", limit: maxDepth, path: pathOf(text, frames) };
      frames.push({ array: character === "[", index: 0, keyStart: 0, keyEnd: 0 });
      expectKey = character === "{";
    } else if (character === "}" || character === "]") {
      frames.pop();
      expectKey = false;
    } else if (character === ",") {
      const top = frames.at(-1);
      if (top?.array) top.index += 1;
      expectKey = top !== undefined && !top.array;
    }
    index += 1;
  }
  return null;
}

/** A hazard in words, to follow a subject: "is nested deeper than the limit of 100 levels (at blocks[0].config…)". */
export function describeJsonHazard(hazard: JsonHazard): string {
  const at = hazard.path ? ` (at ${hazard.path})` : "";
  if (hazard.kind === "too_deep") return `is nested deeper than the limit of ${hazard.limit} levels${at}`;
  return `uses "__proto__" as a key${at}, which is reserved: copying it would replace an object's prototype`;
}

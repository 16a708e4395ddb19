import { parseReferences } from "@/executor";
import type { CodeReferenceResolver } from "./code-references";

/**
 * References inside a Python Function block's code become Python values, not raw text:
 * `n = <start.n>` becomes `n = 5`, `items = <start.items>` becomes `items = [1, {"a": None}]`.
 * Inside a string literal the value's text is inserted, escaped for that literal (f-strings double
 * their braces; a raw string is closed, the text added as an ordinary literal beside it, and the
 * raw string reopened: adjacent literals are one string in Python). Comments are left alone. A
 * value can never break out of its place and turn into code.
 */

interface CodeFrame {
  kind: "code";
  /** Inside an f-string's `{...}`: the bracket depth there, so the `}` that ends it is found. */
  fieldDepth: number | null;
}

interface StringFrame {
  kind: "string";
  quote: "'" | '"';
  triple: boolean;
  raw: boolean;
  bytes: boolean;
  /** f-strings and t-strings: `{...}` holds code. */
  formatted: boolean;
  /** The prefix as written (`rb`, `F`...), to reopen a raw string after inserted text. */
  prefix: string;
}

type Frame = CodeFrame | StringFrame | { kind: "comment" };

const STRING_PREFIX = /^(?:[rR][bBfFtT]?|[bBfFtT][rR]?|[uU])$/;

/** The value as a Python expression. Negative numbers are parenthesised so that `<a.n> ** 2` keeps its meaning. */
export function pythonLiteral(value: unknown): string {
  if (value === undefined || value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return value > 0 ? 'float("inf")' : value < 0 ? '(-float("inf"))' : 'float("nan")';
    return value < 0 || Object.is(value, -0) ? `(${String(value)})` : String(value);
  }
  if (typeof value === "bigint") return value < 0n ? `(${value})` : String(value);
  // JSON's string escapes (\" \\ \n \uXXXX...) all mean the same in a Python string literal.
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(", ")}}`;
  }
  return "None";
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Text as the inside of an ordinary (not raw) string literal of this kind. */
function escapeForString(text: string, frame: StringFrame): string {
  let escaped = text.replace(/[\\\n\r'"]/g, (character) => {
    if (character === "\\") return "\\\\";
    if (character === "\n") return "\\n";
    if (character === "\r") return "\\r";
    return character === frame.quote ? `\\${frame.quote}` : character;
  });
  if (frame.formatted) escaped = escaped.replace(/[{}]/g, (brace) => brace + brace);
  // A bytes literal holds ASCII only: anything else goes in as its UTF-8 bytes.
  if (frame.bytes)
    escaped = escaped.replace(/[^\x20-\x7e]/gu, (character) =>
      Array.from(new TextEncoder().encode(character), (byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join(""),
    );
  return escaped;
}

function insertIntoString(text: string, frame: StringFrame): string {
  if (!frame.raw) return escapeForString(text, frame);
  // A raw literal cannot escape anything: close it, add an ordinary literal, reopen it.
  const quotes = frame.triple ? frame.quote.repeat(3) : frame.quote;
  const ordinary: StringFrame = { ...frame, raw: false, triple: false, quote: '"' };
  const plainPrefix = frame.prefix.replace(/[rR]/g, "");
  return `${quotes} ${plainPrefix}"${escapeForString(text, ordinary)}" ${frame.prefix}${quotes}`;
}

/** The string literal starting at `index` (its prefix just before), or null when none starts there. */
function stringStart(code: string, index: number, prefix: string): StringFrame | null {
  const quote = code[index];
  if (quote !== "'" && quote !== '"') return null;
  const lower = prefix.toLowerCase();
  return {
    kind: "string",
    quote,
    triple: code.startsWith(quote.repeat(3), index),
    raw: lower.includes("r"),
    bytes: lower.includes("b"),
    formatted: lower.includes("f") || lower.includes("t"),
    prefix,
  };
}

/**
 * Replaces every reference in Python `code` with its value, in the form its place in the code needs.
 * @throws whatever `resolve` throws for a reference it cannot resolve
 */
export function substitutePythonReferences(code: string, resolve: CodeReferenceResolver): string {
  const tokens = parseReferences(code);
  if (tokens.length === 0) return code;
  const tokenAt = new Map(tokens.map((token) => [token.start, token]));
  const stack: Frame[] = [{ kind: "code", fieldDepth: null }];
  let output = "";
  let index = 0;
  // The identifier being read, which may turn out to be a string prefix (`rb"..."`).
  let word = "";

  while (index < code.length) {
    const frame = stack[stack.length - 1]!;
    const token = tokenAt.get(index);
    if (token && frame.kind !== "comment") {
      const value = resolve(token);
      output += frame.kind === "code" ? pythonLiteral(value) : insertIntoString(textOf(value), frame);
      index = token.end;
      word = "";
      continue;
    }
    const character = code[index]!;
    if (frame.kind === "comment") {
      if (character === "\n") stack.pop();
      output += character;
      index++;
      continue;
    }
    if (frame.kind === "string") {
      const quotes = frame.triple ? frame.quote.repeat(3) : frame.quote;
      if (character === "\\" && index + 1 < code.length) {
        output += code.slice(index, index + 2);
        index += 2;
      } else if (code.startsWith(quotes, index) || (!frame.triple && character === "\n")) {
        const closing = character === "\n" ? character : quotes;
        output += closing;
        index += closing.length;
        stack.pop();
      } else if (frame.formatted && (code.startsWith("{{", index) || code.startsWith("}}", index))) {
        output += code.slice(index, index + 2);
        index += 2;
      } else if (frame.formatted && character === "{") {
        output += character;
        index++;
        stack.push({ kind: "code", fieldDepth: 0 });
      } else {
        output += character;
        index++;
      }
      continue;
    }
    // Code.
    if (/[\p{L}\p{N}_]/u.test(character)) {
      word += character;
      output += character;
      index++;
      continue;
    }
    // A quote right after a name that is no prefix (`x"..."`) is a syntax error Python reports; read it as a plain string.
    const prefix = STRING_PREFIX.test(word) ? word : "";
    word = "";
    const string = stringStart(code, index, prefix);
    if (string) {
      const opening = string.triple ? string.quote.repeat(3) : string.quote;
      output += opening;
      index += opening.length;
      stack.push(string);
      continue;
    }
    output += character;
    index++;
    if (character === "#") stack.push({ kind: "comment" });
    else if (frame.fieldDepth !== null) {
      if (character === "(" || character === "[" || character === "{") frame.fieldDepth++;
      else if (character === ")" || character === "]") frame.fieldDepth--;
      else if (character === "}") {
        if (frame.fieldDepth === 0) stack.pop();
        else frame.fieldDepth--;
      }
    }
  }
  return output;
}

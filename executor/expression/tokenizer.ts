import { ExpressionError } from "./errors";

export type TokenKind = "number" | "string" | "identifier" | "operator" | "end";

export interface Token {
  kind: TokenKind;
  /** The operator or identifier text; for literals the source text. */
  text: string;
  /** Parsed value of number and string literals. */
  value?: number | string;
  position: number;
}

/** Longest first, so `===` wins over `==` and `<=` over `<`. */
const OPERATORS = [
  "===",
  "!==",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "!",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  ":",
  "?",
];

const IDENTIFIER_START = /[\p{L}_$]/u;
const IDENTIFIER_PART = /[\p{L}\p{N}_$]/u;
const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "/": "/",
};

function readString(source: string, start: number): { value: string; end: number } {
  const quote = source[start];
  let value = "";
  let index = start + 1;
  while (index < source.length) {
    const char = source[index]!;
    if (char === quote) return { value, end: index + 1 };
    if (char === "\\") {
      const next = source[index + 1];
      if (next === undefined) break;
      if (next === "u") {
        const hex = source.slice(index + 2, index + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new ExpressionError("Invalid \\u escape in string", index);
        value += String.fromCharCode(parseInt(hex, 16));
        index += 6;
        continue;
      }
      const escaped = ESCAPES[next];
      if (escaped === undefined) throw new ExpressionError(`Unknown escape \\${next} in string`, index);
      value += escaped;
      index += 2;
      continue;
    }
    value += char;
    index += 1;
  }
  throw new ExpressionError("Unterminated string (missing closing quote)", start);
}

const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;

/** Splits an expression into tokens; the last token is always `end`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    if (char === '"' || char === "'") {
      const { value, end } = readString(source, index);
      tokens.push({ kind: "string", text: source.slice(index, end), value, position: index });
      index = end;
      continue;
    }
    if (/[0-9]/.test(char) || (char === "." && /[0-9]/.test(source[index + 1] ?? ""))) {
      const match = NUMBER.exec(source.slice(index));
      const text = match![0];
      tokens.push({ kind: "number", text, value: Number(text), position: index });
      index += text.length;
      continue;
    }
    if (IDENTIFIER_START.test(char)) {
      let end = index + 1;
      while (end < source.length && IDENTIFIER_PART.test(source[end]!)) end += 1;
      tokens.push({ kind: "identifier", text: source.slice(index, end), position: index });
      index = end;
      continue;
    }
    const operator = OPERATORS.find((candidate) => source.startsWith(candidate, index));
    if (!operator) {
      throw new ExpressionError(`Unexpected character '${char}'`, index);
    }
    tokens.push({ kind: "operator", text: operator, position: index });
    index += operator.length;
  }
  tokens.push({ kind: "end", text: "", position: source.length });
  return tokens;
}

import { parseReferences, type ReferenceToken } from "@/executor";

/**
 * References inside a Function block's code become JavaScript values, not raw text:
 * `const n = <start.n>;` becomes `const n = 5;` and `const s = <start.name>;` becomes
 * `const s = "Bob";`. Inside a string or template literal the value's text is inserted, escaped
 * for that literal (`"Hello <start.name>"` becomes `"Hello Bob"`); inside a regular expression it
 * is escaped for the pattern; comments are left alone. A value can never break out of its place
 * and turn into code.
 */

type Place = "code" | "single" | "double" | "template" | "regex" | "lineComment" | "blockComment";

/** Given a reference (`<start.n>` or `{{NAME}}`), its value; throws when it cannot be resolved. */
export type CodeReferenceResolver = (reference: ReferenceToken) => unknown;

/** The value as a JavaScript expression. Objects and negative numbers are parenthesised so that `x -<a.n>` or `<a.obj>.key` still parse. */
export function codeLiteral(value: unknown): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "number") return value < 0 || Object.is(value, -0) ? `(${String(value)})` : String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  return `(${JSON.stringify(value) ?? "null"})`;
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function escapeForString(text: string, quote: "'" | '"'): string {
  return text.replace(/[\\\n\r\u2028\u2029'"]/g, (character) => {
    if (character === "\\") return "\\\\";
    if (character === "\n") return "\\n";
    if (character === "\r") return "\\r";
    if (character === "\u2028") return "\\u2028";
    if (character === "\u2029") return "\\u2029";
    return character === quote ? `\\${quote}` : character;
  });
}

function escapeForTemplate(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");
}

function escapeForRegex(text: string): string {
  return text
    .replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r");
}

const REGEX_AFTER_WORD = new Set(["return", "typeof", "instanceof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"]);

/** Whether a `/` at this point starts a regular expression rather than dividing. */
function slashStartsRegex(code: string, index: number): boolean {
  let back = index - 1;
  while (back >= 0 && /\s/.test(code[back]!)) back--;
  if (back < 0) return true;
  const previous = code[back]!;
  if (/[(,=:[!&|?{};+\-*%<>~^]/.test(previous)) return true;
  if (/[\w$]/.test(previous)) {
    let start = back;
    while (start > 0 && /[\w$]/.test(code[start - 1]!)) start--;
    return REGEX_AFTER_WORD.has(code.slice(start, back + 1));
  }
  return false;
}

/** Replaces every reference in `code` with its value, in the form its place in the code needs. */
export function substituteCodeReferences(code: string, resolve: CodeReferenceResolver): string {
  const tokens = parseReferences(code);
  if (tokens.length === 0) return code;
  const tokenAt = new Map(tokens.map((token) => [token.start, token]));

  let place: Place = "code";
  // Brace depth inside each open `${ ... }` of a template literal, innermost last.
  const templateDepths: number[] = [];
  let regexInClass = false;
  let output = "";
  let index = 0;

  while (index < code.length) {
    const token = tokenAt.get(index);
    if (token && place !== "lineComment" && place !== "blockComment") {
      const value = resolve(token);
      if (place === "code") output += codeLiteral(value);
      else if (place === "single" || place === "double") output += escapeForString(textOf(value), place === "single" ? "'" : '"');
      else if (place === "template") output += escapeForTemplate(textOf(value));
      else output += escapeForRegex(textOf(value));
      index = token.end;
      continue;
    }
    const character = code[index]!;
    const next = code[index + 1];
    output += character;
    index++;
    switch (place) {
      case "code":
        if (character === "/" && next === "/") place = "lineComment";
        else if (character === "/" && next === "*") place = "blockComment";
        else if (character === "/" && slashStartsRegex(code, index - 1)) {
          place = "regex";
          regexInClass = false;
        } else if (character === "'") place = "single";
        else if (character === '"') place = "double";
        else if (character === "`") place = "template";
        else if (character === "{" && templateDepths.length > 0) templateDepths[templateDepths.length - 1]!++;
        else if (character === "}" && templateDepths.length > 0) {
          if (templateDepths[templateDepths.length - 1] === 0) {
            templateDepths.pop();
            place = "template";
          } else templateDepths[templateDepths.length - 1]!--;
        }
        break;
      case "single":
      case "double":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === (place === "single" ? "'" : '"') || character === "\n") place = "code";
        break;
      case "template":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === "`") place = "code";
        else if (character === "$" && next === "{") {
          output += next;
          index++;
          templateDepths.push(0);
          place = "code";
        }
        break;
      case "regex":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === "[") regexInClass = true;
        else if (character === "]") regexInClass = false;
        else if ((character === "/" && !regexInClass) || character === "\n") place = "code";
        break;
      case "lineComment":
        if (character === "\n") place = "code";
        break;
      case "blockComment":
        if (character === "*" && next === "/") {
          output += next;
          index++;
          place = "code";
        }
        break;
    }
  }
  return output;
}

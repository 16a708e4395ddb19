import { parseReferences, TrellisError, type ReferenceToken } from "@/executor";
import { SlashContext } from "./slash-context";

/**
 * References inside a Function block's code become JavaScript values, not raw text:
 * `const n = <start.n>;` becomes `const n = 5;` and `const s = <start.name>;` becomes
 * `const s = "Bob";`. Inside a string or template literal the value's text is inserted, escaped
 * for that literal (`"Hello <start.name>"` becomes `"Hello Bob"`); inside a regular expression it
 * is escaped for the pattern; comments are left alone. A value can never break out of its place
 * and turn into code: where the tokenizer cannot be sure whether a `/` starts a regular
 * expression or divides (after `}`, `++`, `--`), a reference after it is refused with the place
 * named, rather than guessed (slash-context.ts).
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

function ambiguousSlash(code: string, index: number, after: string): TrellisError {
  return new TrellisError(
    "invalid_config",
    `Function code: the / at ${placeOf(code, index)} follows ${after}, so it may start a regular expression or divide, and references after it cannot be placed safely. Wrap the expression in parentheses, or put the value in a variable before it (const value = <block.field>;).`,
  );
}

/** Line and column (1-based) of an offset, for messages. */
function placeOf(code: string, index: number): string {
  const before = code.slice(0, index).split("\n");
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/**
 * Replaces every reference in `code` with its value, in the form its place in the code needs.
 * @throws invalid_config naming the line and column of a `/` the tokenizer cannot classify when a reference follows it
 */
export function substituteCodeReferences(code: string, resolve: CodeReferenceResolver): string {
  const tokens = parseReferences(code);
  if (tokens.length === 0) return code;
  const tokenAt = new Map(tokens.map((token) => [token.start, token]));
  const lastReferenceStart = tokens[tokens.length - 1]!.start;
  const slashes = new SlashContext(code);

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
      if (place === "code") {
        output += codeLiteral(value);
        slashes.literal();
      } else if (place === "single" || place === "double")
        output += escapeForString(textOf(value), place === "single" ? "'" : '"');
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
        else if (character === "/") {
          const meaning = slashes.slash();
          if (meaning === "ambiguous" && lastReferenceStart >= index)
            throw ambiguousSlash(code, index - 1, slashes.ambiguity());
          if (meaning === "regex") {
            place = "regex";
            regexInClass = false;
          } else slashes.character(character, index - 1);
        } else if (character === "'") place = "single";
        else if (character === '"') place = "double";
        else if (character === "`") place = "template";
        else if (character === "}" && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === 0) {
          templateDepths.pop();
          place = "template";
        } else {
          if (character === "{" && templateDepths.length > 0) templateDepths[templateDepths.length - 1]!++;
          else if (character === "}" && templateDepths.length > 0) templateDepths[templateDepths.length - 1]!--;
          slashes.character(character, index - 1);
        }
        break;
      case "single":
      case "double":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === (place === "single" ? "'" : '"') || character === "\n") {
          place = "code";
          slashes.literal();
        }
        break;
      case "template":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === "`") {
          place = "code";
          slashes.literal();
        } else if (character === "$" && next === "{") {
          output += next;
          index++;
          templateDepths.push(0);
          place = "code";
          slashes.expressionStart();
        }
        break;
      case "regex":
        if (character === "\\" && next !== undefined) {
          output += next;
          index++;
        } else if (character === "[") regexInClass = true;
        else if (character === "]") regexInClass = false;
        else if ((character === "/" && !regexInClass) || character === "\n") {
          place = "code";
          slashes.literal();
        }
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

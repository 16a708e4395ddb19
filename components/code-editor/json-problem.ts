import { jsonLanguage } from "@codemirror/lang-json";

/** Where JSON text stops being JSON and why, in the words a person reads under the editor. */
export interface JsonProblem {
  /** Offsets into the text of what is marked (an empty range at the end for "ends too soon"). */
  from: number;
  to: number;
  /** 1-based, as editors count. */
  line: number;
  column: number;
  /** The parser's reason without its offsets: "Expected ',' or '}' after property value". */
  reason: string;
}

/** The first syntax problem of `text` as JSON, or null when it parses (or is empty). */
export function jsonSyntaxProblem(text: string): JsonProblem | null {
  if (text.trim() === "") return null;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const from = Math.min(text.length, positionInMessage(text, message) ?? firstErrorInTree(text) ?? text.length);
    const to = Math.min(text.length, from + 1);
    const before = text.slice(0, from).split("\n");
    return { from, to, line: before.length, column: before[before.length - 1]!.length + 1, reason: reasonOf(message) };
  }
}

/**
 * The problem worth showing: for a box that takes JSON or plain text with references
 * (`<Agent.content>`), only text that starts like an object or array is held to JSON.
 */
export function jsonProblemToShow(text: string, textAllowed: boolean): JsonProblem | null {
  if (textAllowed && !/^\s*[[{]/.test(text)) return null;
  return jsonSyntaxProblem(text);
}

export function describeJsonProblem(problem: JsonProblem): string {
  return `Line ${problem.line}, column ${problem.column}: ${problem.reason}`;
}

/** V8 says "at position 9" (newer ones add "(line 2 column 2)"); Firefox says "at line 2 column 2". */
function positionInMessage(text: string, message: string): number | null {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (!lineColumn) return null;
  const lines = text.split("\n").slice(0, Number(lineColumn[1]) - 1);
  return lines.reduce((sum, line) => sum + line.length + 1, 0) + Number(lineColumn[2]) - 1;
}

/** Where an error-tolerant JSON parse first gives up, for messages that name no position. */
function firstErrorInTree(text: string): number | null {
  let found: number | null = null;
  jsonLanguage.parser.parse(text).iterate({
    enter: (node) => {
      if (found !== null) return false;
      if (node.type.isError) found = node.from;
      return undefined;
    },
  });
  return found;
}

function reasonOf(message: string): string {
  const reason = message
    .replace(/^JSON\.parse: /, "")
    .replace(/ at line \d+ column \d+ of the JSON data$/, "")
    .replace(/ in JSON at position \d+.*$/, "")
    .replace(/, ".*" is not valid JSON$/s, "")
    .trim();
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

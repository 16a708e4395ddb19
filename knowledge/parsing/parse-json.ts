import { describeJsonHazard, findJsonHazard } from "@/contract";
import type { TextBlock } from "../types";
import { DocumentParseError } from "../errors";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isContainer(value: Json): value is Json[] | { [key: string]: Json } {
  return typeof value === "object" && value !== null;
}

function joinPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * JSON becomes one block per record: the plain fields of each object as `path: value` lines, and
 * nested objects and array elements as blocks of their own. An FAQ array of `{question, answer}`
 * objects therefore gives one block per question.
 */
export function parseJson(text: string): TextBlock[] {
  // The walk below recurses once per level: a deep file would overflow the stack instead of failing with a reason.
  const hazard = findJsonHazard(text);
  if (hazard) throw new DocumentParseError(`the JSON ${describeJsonHazard(hazard)}`);
  let root: Json;
  try {
    root = JSON.parse(text) as Json;
  } catch (error) {
    throw new DocumentParseError(`the JSON is not valid: ${error instanceof Error ? error.message : String(error)}`);
  }
  const blocks: TextBlock[] = [];
  const visit = (value: Json, path: string) => {
    if (!isContainer(value)) {
      blocks.push({ kind: "text", text: path ? `${path}: ${String(value)}` : String(value) });
      return;
    }
    const entries: Array<[string | number, Json]> = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    const lines: string[] = [];
    const nested: Array<[string, Json]> = [];
    for (const [key, item] of entries) {
      if (isContainer(item)) nested.push([joinPath(path, key), item]);
      else if (item !== null && item !== "")
        lines.push(`${typeof key === "number" ? joinPath(path, key) : key}: ${String(item)}`);
    }
    if (lines.length > 0)
      blocks.push({
        kind: "text",
        text: (path && !Array.isArray(value) && !/^\[\d+\]$/.test(path) ? `${path}\n` : "") + lines.join("\n"),
      });
    for (const [childPath, child] of nested) visit(child, childPath);
  };
  visit(root, "");
  return blocks;
}

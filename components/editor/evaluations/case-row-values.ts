import { entryBlockOf, startConfigSchema } from "@/blocks";
import type { DatasetCase, DatasetCaseInput } from "@/contract";

/** A start input as a dataset's column. */
export interface InputColumn {
  name: string;
  type: "string" | "number" | "boolean" | "object" | "array";
  required: boolean;
}

/** The start inputs of a workflow's blocks: the typed columns of its datasets. */
export function inputColumns(
  blocks: readonly { type: string; config: unknown; enabled?: boolean }[] | undefined,
): InputColumn[] {
  const start = blocks ? entryBlockOf(blocks) : undefined;
  const parsed = startConfigSchema.safeParse(start?.config ?? {});
  if (!parsed.success) return [];
  return parsed.data.inputs.map((input) => ({
    name: input.name,
    type: input.type,
    required: input.default === undefined,
  }));
}

/** A row as the table edits it: every cell as text. */
export interface RowText {
  inputs: Record<string, string>;
  expected: string;
  note: string;
  tags: string;
}

const asText = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);

export function rowText(item: DatasetCase | null, columns: readonly InputColumn[]): RowText {
  return {
    inputs: Object.fromEntries(columns.map((column) => [column.name, asText(item?.input[column.name])])),
    expected: asText(item?.expected),
    note: item?.note ?? "",
    tags: item?.tags.join(", ") ?? "",
  };
}

/** The case a row's text stands for, or what is wrong with it (naming the column). */
export function caseFromRow(
  row: RowText,
  columns: readonly InputColumn[],
): { item: DatasetCaseInput } | { problem: string } {
  const input: Record<string, unknown> = {};
  for (const column of columns) {
    const text = row.inputs[column.name] ?? "";
    if (text === "") {
      if (column.required) return { problem: `${column.name} is required` };
      continue;
    }
    if (column.type === "string") input[column.name] = text;
    else if (column.type === "number") {
      const number = Number(text);
      if (!Number.isFinite(number)) return { problem: `${column.name} must be a number` };
      input[column.name] = number;
    } else if (column.type === "boolean") input[column.name] = text === "true";
    else {
      try {
        input[column.name] = JSON.parse(text);
      } catch {
        return { problem: `${column.name} must be JSON (an ${column.type})` };
      }
    }
  }
  const tags = row.tags
    .split(/[;,]/)
    .map((tag) => tag.trim())
    .filter(Boolean);
  return {
    item: { input, ...(row.expected === "" ? {} : { expected: expectedValue(row.expected) }), note: row.note, tags },
  };
}

/** An expected output written as a JSON object or list stays structured; anything else is text. */
function expectedValue(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

import "server-only";
import { entryBlockOf, startConfigSchema } from "@/blocks";
import type { WorkflowDocument } from "@/contract";

/** A start input as the start block declares it. */
export interface StartInputColumn {
  name: string;
  type: "string" | "number" | "boolean" | "object" | "array";
  /** Without a default, a case must give it. */
  required: boolean;
}

/** Columns of an import that are not start inputs. */
export const CASE_COLUMNS = ["expected", "note", "tags"] as const;

/** The start inputs of a workflow's document: what a dataset's columns are checked against. */
export function startInputColumns(document: Pick<WorkflowDocument, "blocks">): StartInputColumn[] {
  const start = entryBlockOf(document.blocks);
  if (!start) return [];
  const config = startConfigSchema.safeParse(start.config);
  if (!config.success) return [];
  return config.data.inputs.map((input) => ({
    name: input.name,
    type: input.type,
    required: input.default === undefined,
  }));
}

/** What is wrong with a set of column names against the start inputs: unknown ones, and required inputs missing. */
export function columnMismatch(
  columns: readonly string[],
  inputs: readonly StartInputColumn[],
): { unknown: string[]; missing: string[] } {
  const declared = new Set(inputs.map((input) => input.name));
  return {
    unknown: columns.filter((column) => !declared.has(column)),
    missing: inputs.filter((input) => input.required && !columns.includes(input.name)).map((input) => input.name),
  };
}

/** The sentence a mismatch is refused with; null when the columns fit. */
export function describeMismatch(
  mismatch: { unknown: string[]; missing: string[] },
  inputs: readonly StartInputColumn[],
): string | null {
  const parts: string[] = [];
  if (mismatch.unknown.length > 0)
    parts.push(
      `${plural(mismatch.unknown, "column")} ${quoted(mismatch.unknown)} ${mismatch.unknown.length > 1 ? "are" : "is"} not a start input`,
    );
  if (mismatch.missing.length > 0)
    parts.push(
      `the required ${plural(mismatch.missing, "input")} ${quoted(mismatch.missing)} ${mismatch.missing.length > 1 ? "are" : "is"} missing`,
    );
  if (parts.length === 0) return null;
  const known = inputs.length > 0 ? inputs.map((input) => input.name).join(", ") : "none";
  return `${parts.join("; ")} (the workflow's start inputs: ${known}).`;
}

/**
 * A cell's text as the input's type: numbers and booleans as written, objects and arrays as JSON.
 * Throws a message (without the place: the caller names the line and column).
 */
export function cellValue(text: string, type: StartInputColumn["type"]): unknown {
  switch (type) {
    case "string":
      return text;
    case "number": {
      const number = text.trim() === "" ? Number.NaN : Number(text);
      if (!Number.isFinite(number)) throw new Error(`"${clip(text)}" is not a number`);
      return number;
    }
    case "boolean":
      if (/^(true|false)$/i.test(text.trim())) return text.trim().toLowerCase() === "true";
      throw new Error(`"${clip(text)}" is not true or false`);
    case "object":
    case "array": {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new Error(`"${clip(text)}" is not JSON (an ${type} is written as JSON)`);
      }
      const isArray = Array.isArray(value);
      if (type === "array" ? !isArray : isArray || value === null || typeof value !== "object")
        throw new Error(`"${clip(text)}" is not an ${type}`);
      return value;
    }
  }
}

/** Whether a value already has the input's type (a JSON case). */
export function typeProblem(value: unknown, type: StartInputColumn["type"]): string | null {
  const ok =
    type === "array"
      ? Array.isArray(value)
      : type === "object"
        ? value !== null && typeof value === "object" && !Array.isArray(value)
        : typeof value === type && (type !== "number" || Number.isFinite(value));
  return ok ? null : `must be ${type === "array" || type === "object" ? "an" : "a"} ${type}`;
}

function plural(items: readonly string[], noun: string): string {
  return items.length > 1 ? `${noun}s` : noun;
}

function quoted(items: readonly string[]): string {
  return items.map((item) => `"${item}"`).join(", ");
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

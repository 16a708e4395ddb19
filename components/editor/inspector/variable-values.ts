/**
 * The workflow's initial variables as the Variables panel edits them. The document keeps plain
 * JSON values (`variables: { name: value }`, as before), and a variable's type is the type of its
 * value, so old documents stay valid and nothing extra is stored: text, number, true/false, or
 * JSON for objects, arrays and null.
 */

import { VARIABLE_NAME } from "@/blocks";

export type VariableType = "string" | "number" | "boolean" | "json";

export const VARIABLE_TYPES: ReadonlyArray<{ value: VariableType; label: string }> = [
  { value: "string", label: "Text" },
  { value: "number", label: "Number" },
  { value: "boolean", label: "True/false" },
  { value: "json", label: "JSON" },
];

export function typeOfValue(value: unknown): VariableType {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "json";
}

/** The value a variable gets when its type changes: converted where it reads sensibly, else the type's empty value. */
export function convertValue(value: unknown, type: VariableType): unknown {
  if (typeOfValue(value) === type) return value;
  if (type === "string") return typeof value === "object" ? JSON.stringify(value) : String(value);
  if (type === "number") {
    const number =
      typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : typeof value === "boolean"
          ? Number(value)
          : NaN;
    return Number.isFinite(number) ? number : 0;
  }
  if (type === "boolean") return value === "true" || value === 1;
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "object") return parsed;
    } catch {
      // Not JSON text: start from an empty object.
    }
  }
  return {};
}

/** Why a name cannot be used for a variable, or null when it can. */
export function nameProblem(name: string, others: ReadonlyArray<string>): string | null {
  if (!VARIABLE_NAME.test(name)) return "Use a letter or _ first, then letters, digits or _";
  if (others.includes(name)) return `'${name}' is already a variable`;
  return null;
}

/** The variables with one renamed, keeping their order (the panel lists them in document order). */
export function renameVariable(
  variables: Readonly<Record<string, unknown>>,
  from: string,
  to: string,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).map(([name, value]) => [name === from ? to : name, value]));
}

/** Parses what the panel's number or JSON box holds; `ok: false` with the reason while it is not valid. */
export function parseTyped(
  text: string,
  type: "number" | "json",
): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (type === "number") {
    const number = text.trim() === "" ? NaN : Number(text);
    return Number.isFinite(number) ? { ok: true, value: number } : { ok: false, problem: "Enter a number" };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: "Not valid JSON" };
  }
}

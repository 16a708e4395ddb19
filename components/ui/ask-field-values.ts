import type { AskField } from "@/contract";

/** What an ask's form holds per field: text as typed, or a checkbox's state. */
export type AskFieldValues = Record<string, string | boolean>;

/** The typed values of an ask's form (the editor's and the chat's), or the first field whose text is not a number. */
export function typedAskFields(
  fields: readonly AskField[],
  values: AskFieldValues,
): { fields: Record<string, string | number | boolean> } | { problem: string } {
  const typed: Record<string, string | number | boolean> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === "boolean") typed[field.name] = value === true;
    else if (field.type === "number") {
      const text = typeof value === "string" ? value.trim() : "";
      if (text === "" || !Number.isFinite(Number(text)))
        return { problem: `${field.label || field.name} must be a number` };
      typed[field.name] = Number(text);
    } else typed[field.name] = typeof value === "string" ? value : "";
  }
  return { fields: typed };
}

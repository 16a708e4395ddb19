import type { FieldHint } from "@/blocks";
import type { CompletionItem } from "../../graph/reference-completion";

/** What every per-kind field editor receives. */
export interface FieldEditorProps {
  blockId: string;
  field: FieldHint;
  value: unknown;
  onChange: (value: unknown) => void;
  invalid: boolean;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
}

export const inputClass =
  "w-full rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:border-indigo-500";
export const smallButtonClass = "rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100";

export function asString(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

export function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

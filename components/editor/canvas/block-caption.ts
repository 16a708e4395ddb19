import { normalizeBlockName } from "@/contract";

/**
 * The type line under a block's name, or null when the name already says it: a block named
 * "Agent" (or "Agent 2", as new blocks are named) reads "Agent", not "Agent / Agent".
 */
export function blockTypeCaption(name: string, typeLabel: string | undefined, type: string): string | null {
  if (!typeLabel) return `Unknown type "${type}"`;
  const base = name.trim().replace(/\s+\d+$/, "");
  return normalizeBlockName(base) === normalizeBlockName(typeLabel) ? null : typeLabel;
}

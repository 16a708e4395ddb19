import { normalizeBlockName } from "@/contract";
import { parseReferences, renameAlternativeRoots } from "@/executor";

/**
 * Rewrites the roots of `<Root.path>` references throughout a block config: `renames` maps a
 * root, normalised as the engine matches it (case and spaces ignored), to the text to write
 * instead. Used when a block is renamed and when pasted blocks get new names or ids, so the
 * references between them keep pointing where they did. Returns the value itself when nothing
 * changed, so callers can tell by identity.
 */
export function renameReferenceRoots<T>(value: T, renames: ReadonlyMap<string, string>): T {
  if (renames.size === 0) return value;
  return rewrite(value, renames) as T;
}

function rewrite(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return rewriteText(value, renames);
  if (Array.isArray(value)) {
    const items = value.map((item) => rewrite(item, renames));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (value && typeof value === "object") {
    let changed = false;
    const entries = Object.entries(value).map(([key, item]) => {
      const next = rewrite(item, renames);
      if (next !== item) changed = true;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

function rewriteText(text: string, renames: ReadonlyMap<string, string>): string {
  let result = "";
  let from = 0;
  for (const token of parseReferences(text)) {
    if (token.kind !== "block") continue;
    // Every alternative of `<A.x ?? B.y>` is renamed; paths, spacing and a literal default stay as written.
    const renamed = renameAlternativeRoots(token, (root) => renames.get(normalizeBlockName(root)));
    if (renamed === token.text) continue;
    result += `${text.slice(from, token.start)}${renamed}`;
    from = token.end;
  }
  return from === 0 ? text : result + text.slice(from);
}

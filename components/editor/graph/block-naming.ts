import { normalizeBlockName } from "@/contract";
import { RESERVED_ROOTS } from "@/executor";

/**
 * Block names must be unique ignoring case and spaces (references use them); ids must be unique
 * and match [A-Za-z0-9_-]{1,64}. New and pasted blocks get the first free "Name", "Name 2", ...
 */
export function uniqueBlockName(wanted: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map(normalizeBlockName));
  const base = wanted.trim().replace(/\s+\d+$/, "") || "Block";
  // `Loop` and `Parallel` are reference roots (<loop.index>), so such blocks start at "Loop 1".
  const reserved = (RESERVED_ROOTS as ReadonlyArray<string>).includes(normalizeBlockName(base));
  if (!used.has(normalizeBlockName(wanted)) && wanted.trim() && !(reserved && wanted.trim() === base))
    return wanted.trim();
  for (let index = reserved ? 1 : 2; ; index += 1) {
    const candidate = `${base} ${index}`;
    if (!used.has(normalizeBlockName(candidate))) return candidate;
  }
}

export function uniqueBlockId(prefix: string, taken: ReadonlySet<string>): string {
  const base = prefix.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 56) || "block";
  for (let index = 1; ; index += 1) {
    const candidate = `${base}${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function uniqueEdgeId(taken: ReadonlySet<string>): string {
  return uniqueBlockId("e", taken);
}

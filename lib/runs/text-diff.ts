import type { TextDiffPart } from "@/contract";

/** Past this many words on either side the LCS table would be too large: the texts are shown as one replacement. */
const MAX_WORDS = 2000;

/** Words with the spaces after them, so that joining the parts gives the texts back exactly. */
function words(text: string): string[] {
  return text.match(/\s+|[^\s]+\s*/g) ?? [];
}

function push(parts: TextDiffPart[], kind: TextDiffPart["kind"], text: string): void {
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/**
 * A word-level diff of two texts (longest common subsequence): the `same` and `removed` parts
 * joined give `from`, the `same` and `added` parts give `to`. Very long texts are one removal and
 * one addition, which is still a true diff, only a coarse one.
 */
export function diffText(from: string, to: string): TextDiffPart[] {
  const a = words(from);
  const b = words(to);
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    return [...(from ? [{ kind: "removed" as const, text: from }] : []), ...(to ? [{ kind: "added" as const, text: to }] : [])];
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const parts: TextDiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push(parts, "same", a[i]!);
      i += 1;
      j += 1;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) push(parts, "removed", a[i++]!);
    else push(parts, "added", b[j++]!);
  }
  while (i < a.length) push(parts, "removed", a[i++]!);
  while (j < b.length) push(parts, "added", b[j++]!);
  return parts;
}

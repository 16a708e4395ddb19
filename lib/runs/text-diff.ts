import type { TextDiffPart } from "@/contract";

/**
 * Cells of the LCS table one text diff may fill (a few ms, 2 MB). Past them the changed middle of
 * the texts (what is left once their common start and end are set aside) is shown as one
 * replacement: still a true diff, only a coarse one.
 */
export const TEXT_DIFF_CELLS = 1_000_000;
/** Cells all the text diffs of one run comparison may fill together (a run of many loop iterations has many). */
export const RUN_DIFF_CELLS = 8_000_000;

/** What is left of a comparison's allowance of table cells; each text diff spends from it. */
export class DiffBudget {
  constructor(public cellsLeft: number = RUN_DIFF_CELLS) {}
}

/** Words with the spaces after them, so that joining the parts gives the texts back exactly. */
function words(text: string): string[] {
  return text.match(/\s+|[^\s]+\s*/g) ?? [];
}

function push(parts: TextDiffPart[], kind: TextDiffPart["kind"], text: string): void {
  if (!text) return;
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** The word-level LCS diff of `a` and `b` into `parts`. */
function diffWords(a: readonly string[], b: readonly string[], parts: TextDiffPart[]): void {
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..] (at most 1,000 words: the cell limit is a million).
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
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
}

/**
 * A word-level diff of two texts (longest common subsequence): the `same` and `removed` parts
 * joined give `from`, the `same` and `added` parts give `to`. The common start and end are found
 * first (linear); the table covers only the middle, within TEXT_DIFF_CELLS and the `budget` left.
 */
export function diffText(
  from: string,
  to: string,
  budget: DiffBudget = new DiffBudget(TEXT_DIFF_CELLS),
): TextDiffPart[] {
  const a = words(from);
  const b = words(to);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  const parts: TextDiffPart[] = [];
  push(parts, "same", a.slice(0, start).join(""));
  const cells = (middleA.length + 1) * (middleB.length + 1);
  if (middleA.length > 0 && middleB.length > 0 && cells <= Math.min(TEXT_DIFF_CELLS, budget.cellsLeft)) {
    budget.cellsLeft -= cells;
    diffWords(middleA, middleB, parts);
  } else {
    push(parts, "removed", middleA.join(""));
    push(parts, "added", middleB.join(""));
  }
  push(parts, "same", a.slice(a.length - end).join(""));
  return parts;
}

/**
 * Where masked forms were found, and how the text around them is rewritten: occurrences grouped
 * where they overlap, rendered as labels in a text, or in the pieces of a value's joined text.
 */

import type { Skeleton } from "./secret-forms";

/** What a masked value is replaced by. */
export function secretLabel(name: string): string {
  return `[secret:${name}]`;
}

/** A skeleton form (secret-forms.ts): searched in a text's skeleton, already lower case. */
export interface SkeletonPattern {
  form: string;
  name: string;
}

/** One occurrence of a masked form: [start, end) in the text. */
export interface Match {
  start: number;
  end: number;
  name: string;
}

/** Occurrences grouped where they overlap; each group becomes the labels of its outermost matches. */
export interface MatchGroup {
  start: number;
  end: number;
  names: string[];
}

export function groupMatches(matches: Match[]): MatchGroup[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const groups: Array<{ start: number; end: number; members: Match[] }> = [];
  for (const match of sorted) {
    const last = groups.at(-1);
    if (last && match.start < last.end) {
      last.end = Math.max(last.end, match.end);
      last.members.push(match);
    } else groups.push({ start: match.start, end: match.end, members: [match] });
  }
  return groups.map(({ start, end, members }) => {
    // A match inside another (a secret that is part of a longer one, or a shorter form) adds no label.
    const outermost = members.filter(
      (member, index) =>
        !members.some((other, at) => at < index && other.start <= member.start && member.end <= other.end),
    );
    return { start, end, names: [...new Set(outermost.map((member) => member.name))] };
  });
}

export function render(text: string, groups: MatchGroup[]): string {
  let result = "";
  let last = 0;
  for (const group of groups) {
    result += text.slice(last, group.start) + group.names.map(secretLabel).join("");
    last = group.end;
  }
  return result + text.slice(last);
}

/** Occurrences of skeleton forms, as ranges of the original text (separators between their characters included). */
export function skeletonMatches(skeleton: Skeleton, patterns: readonly SkeletonPattern[]): Match[] {
  const matches: Match[] = [];
  const { text, positions } = skeleton;
  for (const { form, name } of patterns) {
    for (let found = text.indexOf(form); found !== -1; found = text.indexOf(form, found + 1)) {
      matches.push({ start: positions[found]!, end: positions[found + form.length - 1]! + 1, name });
    }
  }
  return matches;
}

/**
 * The new text of each piece of a joined text (undefined: unchanged): the part of a piece that a
 * group covers is replaced by the group's labels, so every piece of a split value shows the label.
 */
export function maskPieces(texts: readonly string[], groups: readonly MatchGroup[]): Array<string | undefined> {
  const masked: Array<string | undefined> = new Array(texts.length);
  let pieceStart = 0;
  let first = 0;
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index]!;
    const pieceEnd = pieceStart + text.length;
    while (first < groups.length && groups[first]!.end <= pieceStart) first++;
    const touching: MatchGroup[] = [];
    for (let at = first; at < groups.length && groups[at]!.start < pieceEnd; at++) {
      const group = groups[at]!;
      if (group.end > pieceStart)
        touching.push({
          start: Math.max(group.start, pieceStart) - pieceStart,
          end: Math.min(group.end, pieceEnd) - pieceStart,
          names: group.names,
        });
    }
    if (touching.length > 0) masked[index] = render(text, touching);
    pieceStart = pieceEnd;
  }
  return masked;
}

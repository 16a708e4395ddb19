import type { Section } from "./sections";
import { countTokens, decodeTokens, encodeTokens } from "./tokenizer";
import { splitSentences } from "./split-sentences";

/**
 * A run of text that the packer treats as indivisible: a whole section when it fits, else a
 * paragraph, a group of sentences, or (for a sentence longer than a chunk) a window of tokens.
 */
export interface Segment {
  text: string;
  tokens: number;
  sectionIndex: number;
  /** The section's heading path as one line, repeated when a chunk starts mid-section. */
  headingLine: string;
  headings: string[];
  /** True for the segment that opens its section (its text already starts with the heading line). */
  opensSection: boolean;
  pages: number[];
}

/** Tokens of the "\n\n" that joins two parts of a chunk. */
export const SEPARATOR_TOKENS = 1;

function splitByTokens(text: string, budget: number): string[] {
  const tokens = encodeTokens(text);
  const windows: string[] = [];
  for (let start = 0; start < tokens.length; start += budget) windows.push(decodeTokens(tokens.slice(start, start + budget)).trim());
  return windows.filter(Boolean);
}

/** Pieces of one paragraph, each within `budget` tokens, cut at sentence ends where possible. */
function splitParagraph(text: string, budget: number): string[] {
  if (countTokens(text) <= budget) return [text];
  const pieces: string[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  for (const sentence of splitSentences(text)) {
    const tokens = countTokens(sentence);
    if (tokens > budget) {
      if (current.length) pieces.push(current.join(" "));
      current = [];
      currentTokens = 0;
      pieces.push(...splitByTokens(sentence, budget));
      continue;
    }
    if (current.length > 0 && currentTokens + 1 + tokens > budget) {
      pieces.push(current.join(" "));
      current = [];
      currentTokens = 0;
    }
    current.push(sentence);
    currentTokens += tokens + (current.length > 1 ? 1 : 0);
  }
  if (current.length) pieces.push(current.join(" "));
  return pieces;
}

export function sectionSegments(section: Section, sectionIndex: number, chunkSize: number): Segment[] {
  const headingLine = section.headings.join(" > ");
  const pagesOf = (paragraphs: Section["paragraphs"]) => [...new Set(paragraphs.flatMap((paragraph) => (paragraph.page ? [paragraph.page] : [])))];
  const whole = [headingLine, ...section.paragraphs.map((paragraph) => paragraph.text)].filter(Boolean).join("\n\n");
  const wholeTokens = countTokens(whole);
  const base = { sectionIndex, headingLine, headings: section.headings };
  if (wholeTokens <= chunkSize) return [{ ...base, text: whole, tokens: wholeTokens, opensSection: true, pages: pagesOf(section.paragraphs) }];

  // Room for the heading line that may be repeated in front of any piece of this section.
  const headingTokens = headingLine ? countTokens(headingLine) + SEPARATOR_TOKENS : 0;
  const budget = Math.max(16, chunkSize - headingTokens);
  const segments: Segment[] = [];
  for (const paragraph of section.paragraphs) {
    for (const piece of splitParagraph(paragraph.text, budget)) {
      const opensSection = segments.length === 0 && headingLine !== "";
      const text = opensSection ? `${headingLine}\n\n${piece}` : piece;
      segments.push({ ...base, text, tokens: countTokens(text), opensSection, pages: paragraph.page ? [paragraph.page] : [] });
    }
  }
  return segments;
}

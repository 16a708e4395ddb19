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

interface Piece {
  text: string;
  tokens: number;
}

function splitByTokens(text: string, budget: number): Piece[] {
  const tokens = encodeTokens(text);
  const windows: Piece[] = [];
  for (let start = 0; start < tokens.length; start += budget) {
    const slice = tokens.slice(start, start + budget);
    const piece = decodeTokens(slice).trim();
    if (piece) windows.push({ text: piece, tokens: slice.length });
  }
  return windows;
}

/**
 * Pieces of one paragraph, each within `budget` tokens, cut at sentence ends where possible.
 * Every sentence is tokenized once; piece counts are sums (joining with a space adds none, as
 * the space belongs to the next word's token), and the chunk's final count is exact anyway.
 */
function splitParagraph(text: string, tokens: number, budget: number): Piece[] {
  if (tokens <= budget) return [{ text, tokens }];
  const pieces: Piece[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  const flush = () => {
    if (current.length) pieces.push({ text: current.join(" "), tokens: currentTokens });
    current = [];
    currentTokens = 0;
  };
  for (const sentence of splitSentences(text)) {
    const count = countTokens(sentence);
    if (count > budget) {
      flush();
      pieces.push(...splitByTokens(sentence, budget));
      continue;
    }
    if (current.length > 0 && currentTokens + count > budget) flush();
    current.push(sentence);
    currentTokens += count;
  }
  flush();
  return pieces;
}

export function sectionSegments(section: Section, sectionIndex: number, chunkSize: number): Segment[] {
  const headingLine = section.headings.join(" > ");
  const headingTokens = headingLine ? countTokens(headingLine) + SEPARATOR_TOKENS : 0;
  const paragraphTokens = section.paragraphs.map((paragraph) => countTokens(paragraph.text));
  const wholeTokens =
    headingTokens +
    paragraphTokens.reduce((sum, count) => sum + count, 0) +
    SEPARATOR_TOKENS * Math.max(0, section.paragraphs.length - 1);
  const base = { sectionIndex, headingLine, headings: section.headings };
  if (wholeTokens <= chunkSize) {
    const whole = [headingLine, ...section.paragraphs.map((paragraph) => paragraph.text)].filter(Boolean).join("\n\n");
    const pages = [...new Set(section.paragraphs.flatMap((paragraph) => (paragraph.page ? [paragraph.page] : [])))];
    return [{ ...base, text: whole, tokens: wholeTokens, opensSection: true, pages }];
  }

  // Room for the heading line that may be repeated in front of any piece of this section.
  const budget = Math.max(16, chunkSize - headingTokens);
  const segments: Segment[] = [];
  section.paragraphs.forEach((paragraph, index) => {
    for (const piece of splitParagraph(paragraph.text, paragraphTokens[index] ?? 0, budget)) {
      const opensSection = segments.length === 0 && headingLine !== "";
      const text = opensSection ? `${headingLine}\n\n${piece.text}` : piece.text;
      segments.push({
        ...base,
        text,
        tokens: piece.tokens + (opensSection ? headingTokens : 0),
        opensSection,
        pages: paragraph.page ? [paragraph.page] : [],
      });
    }
  });
  return segments;
}

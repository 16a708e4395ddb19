import type { Chunk, ChunkingOptions, TextBlock } from "../types";
import { groupSections } from "./sections";
import { SEPARATOR_TOKENS, sectionSegments, type Segment } from "./segments";
import { countTokens, decodeTokens, encodeTokens } from "./tokenizer";
import { splitSentences } from "./split-sentences";

interface Draft {
  prefix: string[];
  segments: Segment[];
  tokens: number;
}

/** The last sentences of a chunk's own text, up to `limit` tokens (or its last tokens). */
function overlapTail(segments: Segment[], limit: number): string {
  if (limit <= 0) return "";
  const sentences = segments.flatMap((segment) =>
    splitSentences(segment.opensSection ? segment.text.slice(segment.headingLine.length) : segment.text),
  );
  const kept: string[] = [];
  let tokens = 0;
  for (let index = sentences.length - 1; index >= 0; index--) {
    const sentence = sentences[index] ?? "";
    const count = countTokens(sentence) + (kept.length ? 1 : 0);
    if (tokens + count > limit) break;
    kept.unshift(sentence);
    tokens += count;
  }
  if (kept.length > 0) return kept.join(" ");
  const last = sentences[sentences.length - 1] ?? "";
  return decodeTokens(encodeTokens(last).slice(-limit)).trim();
}

function render(draft: Draft): string {
  return [...draft.prefix, ...draft.segments.map((segment) => segment.text)].join("\n\n");
}

/**
 * Splits a parsed document into chunks of at most `chunkSize` tokens. Sections stay whole when
 * they fit; small sections share a chunk; a long section is cut at paragraphs, then sentences,
 * and each chunk that starts inside a section repeats the section's heading path and the last
 * `chunkOverlap` tokens of sentences before it, so no chunk loses its context.
 */
export function chunkDocument(blocks: TextBlock[], options: ChunkingOptions): Chunk[] {
  const { chunkSize, chunkOverlap } = options;
  if (!Number.isInteger(chunkSize) || chunkSize < 50)
    throw new RangeError(`chunkSize must be an integer of at least 50 tokens (got ${chunkSize})`);
  if (!Number.isInteger(chunkOverlap) || chunkOverlap < 0 || chunkOverlap >= chunkSize / 2) {
    throw new RangeError(`chunkOverlap must be an integer from 0 to less than half of chunkSize (got ${chunkOverlap})`);
  }
  const segments = groupSections(blocks).flatMap((section, index) => sectionSegments(section, index, chunkSize));
  const drafts: Draft[] = [];
  let draft: Draft = { prefix: [], segments: [], tokens: 0 };

  const startDraft = (segment: Segment, previous: Draft | undefined) => {
    const prefix: string[] = [];
    let tokens = 0;
    if (!segment.opensSection && segment.headingLine) {
      prefix.push(segment.headingLine);
      tokens += countTokens(segment.headingLine) + SEPARATOR_TOKENS;
    }
    const lastOfPrevious = previous?.segments[previous.segments.length - 1];
    if (!segment.opensSection && lastOfPrevious?.sectionIndex === segment.sectionIndex) {
      const room = Math.min(chunkOverlap, chunkSize - tokens - segment.tokens - SEPARATOR_TOKENS);
      const tail = overlapTail(
        previous?.segments.filter((item) => item.sectionIndex === segment.sectionIndex) ?? [],
        room,
      );
      if (tail) {
        prefix.push(tail);
        tokens += countTokens(tail) + SEPARATOR_TOKENS;
      }
    }
    return { prefix, segments: [segment], tokens: tokens + segment.tokens };
  };

  for (const segment of segments) {
    if (draft.segments.length > 0 && draft.tokens + SEPARATOR_TOKENS + segment.tokens <= chunkSize) {
      draft.segments.push(segment);
      draft.tokens += SEPARATOR_TOKENS + segment.tokens;
      continue;
    }
    if (draft.segments.length > 0) drafts.push(draft);
    draft = startDraft(segment, drafts[drafts.length - 1]);
  }
  if (draft.segments.length > 0) drafts.push(draft);

  const finished: Array<{ draft: Draft; content: string; tokenCount: number }> = [];
  for (let index = 0; index < drafts.length; index++) {
    const item = drafts[index]!;
    let content = render(item);
    let tokenCount = countTokens(content);
    // Packing adds up part counts; joining parts can shift a boundary token. An over-full chunk
    // hands its last part to a chunk of its own rather than losing text.
    if (tokenCount > chunkSize && item.segments.length > 1) {
      const moved = item.segments.pop()!;
      drafts.splice(index + 1, 0, startDraft(moved, item));
      index--;
      continue;
    }
    if (tokenCount > chunkSize && item.prefix.length > 0) {
      item.prefix = [];
      index--;
      continue;
    }
    if (tokenCount > chunkSize) {
      content = decodeTokens(encodeTokens(content).slice(0, chunkSize)).trim();
      tokenCount = countTokens(content);
    }
    finished.push({ draft: item, content, tokenCount });
  }

  return finished.map(({ draft: item, content, tokenCount }, index) => {
    const pages = [...new Set(item.segments.flatMap((segment) => segment.pages))];
    const headings = item.segments[0]?.headings ?? [];
    return { index, content, tokenCount, metadata: pages.length ? { headings, pages } : { headings } };
  });
}

import type { TextBlock } from "../types";

export interface Paragraph {
  text: string;
  page?: number;
}

/** A heading path and the paragraphs under it, up to the next heading. */
export interface Section {
  headings: string[];
  paragraphs: Paragraph[];
}

/**
 * Groups blocks under their headings. A heading of level n replaces the heading at level n and
 * everything deeper, so `Refunds > Eligibility` follows `# Refunds` then `## Eligibility`.
 * Sections with no text are dropped; their headings live on in the paths of their children.
 */
export function groupSections(blocks: TextBlock[]): Section[] {
  const sections: Section[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { headings: [], paragraphs: [] };
  for (const block of blocks) {
    if (block.kind === "heading") {
      if (current.paragraphs.length > 0) sections.push(current);
      const level = block.level ?? 1;
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
      stack.push({ level, text: block.text });
      current = { headings: stack.map((entry) => entry.text), paragraphs: [] };
      continue;
    }
    current.paragraphs.push(block.page === undefined ? { text: block.text } : { text: block.text, page: block.page });
  }
  if (current.paragraphs.length > 0) sections.push(current);
  return sections;
}

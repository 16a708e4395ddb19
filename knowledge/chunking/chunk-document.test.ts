import { describe, expect, it } from "vitest";
import { type TextBlock, DEFAULT_CHUNKING } from "../types";
import { chunkDocument } from "./chunk-document";
import { countTokens } from "./tokenizer";

function sentence(index: number): string {
  return `Sentence number ${index} explains clause ${index} of the travel policy in plain words.`;
}

function longSection(heading: string, paragraphs: number, sentencesEach: number, offset = 0): TextBlock[] {
  const blocks: TextBlock[] = [{ kind: "heading", level: 2, text: heading }];
  for (let p = 0; p < paragraphs; p++) {
    const text = Array.from({ length: sentencesEach }, (_, s) => sentence(offset + p * sentencesEach + s)).join(" ");
    blocks.push({ kind: "text", text });
  }
  return blocks;
}

describe("chunkDocument", () => {
  it("keeps a small document in one chunk that starts with its heading", () => {
    const chunks = chunkDocument(
      [
        { kind: "heading", level: 1, text: "Refund policy" },
        { kind: "text", text: "Refunds within 30 days." },
      ],
      DEFAULT_CHUNKING,
    );
    expect(chunks).toEqual([
      {
        index: 0,
        content: "Refund policy\n\nRefunds within 30 days.",
        tokenCount: countTokens("Refund policy\n\nRefunds within 30 days."),
        metadata: { headings: ["Refund policy"] },
      },
    ]);
  });

  it("never exceeds the chunk size, counted in tokens", () => {
    const blocks = [{ kind: "heading", level: 1, text: "Travel" } as TextBlock, ...longSection("Flights", 30, 8)];
    const chunks = chunkDocument(blocks, { chunkSize: 200, chunkOverlap: 40 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBe(countTokens(chunk.content));
      expect(chunk.tokenCount).toBeLessThanOrEqual(200);
    }
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, index) => index));
  });

  it("repeats the heading path and the last sentences of the previous chunk inside a long section", () => {
    const chunks = chunkDocument([{ kind: "heading", level: 1, text: "Travel" }, ...longSection("Flights", 10, 8)], {
      chunkSize: 200,
      chunkOverlap: 40,
    });
    const second = chunks[1]!;
    expect(second.content.startsWith("Travel > Flights\n\n")).toBe(true);
    expect(second.metadata.headings).toEqual(["Travel", "Flights"]);
    const firstSentences = chunks[0]!.content.split(/(?<=\.)\s+/);
    const lastOfFirst = firstSentences[firstSentences.length - 1]!;
    expect(second.content).toContain(lastOfFirst);
    // Overlap stays within its budget: heading line + overlap + new text.
    const overlapText = second.content.slice(
      "Travel > Flights\n\n".length,
      second.content.indexOf(lastOfFirst) + lastOfFirst.length,
    );
    expect(countTokens(overlapText)).toBeLessThanOrEqual(40);
  });

  it("does not carry overlap across a heading, and starts a new section cleanly", () => {
    const blocks = [...longSection("Flights", 6, 8), ...longSection("Hotels", 6, 8, 1000)];
    const chunks = chunkDocument(blocks, { chunkSize: 200, chunkOverlap: 40 });
    const firstHotel = chunks.find(
      (chunk) => chunk.metadata.headings[0] === "Hotels" && chunk.content.startsWith("Hotels"),
    )!;
    expect(firstHotel).toBeDefined();
    expect(firstHotel.content).not.toMatch(/Sentence number \d{1,3} /);
  });

  it("cuts a sentence longer than a chunk by tokens", () => {
    const giant = Array.from({ length: 600 }, (_, index) => `word${index}`).join(" ");
    const chunks = chunkDocument([{ kind: "text", text: giant }], { chunkSize: 100, chunkOverlap: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(100);
    expect(chunks.map((chunk) => chunk.content).join(" ")).toContain("word599");
  });

  it("merges small sections into one chunk and records PDF pages", () => {
    const chunks = chunkDocument(
      [
        { kind: "heading", level: 1, text: "A" },
        { kind: "text", text: "alpha", page: 1 },
        { kind: "heading", level: 1, text: "B" },
        { kind: "text", text: "beta", page: 2 },
      ],
      DEFAULT_CHUNKING,
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toBe("A\n\nalpha\n\nB\n\nbeta");
    expect(chunks[0]!.metadata.pages).toEqual([1, 2]);
  });

  it("names a bad setting", () => {
    expect(() => chunkDocument([], { chunkSize: 10, chunkOverlap: 0 })).toThrow(/chunkSize/);
    expect(() => chunkDocument([], { chunkSize: 1000, chunkOverlap: 600 })).toThrow(/chunkOverlap/);
  });
});

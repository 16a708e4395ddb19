import { afterAll, describe, expect, it } from "vitest";
import { createHashEmbedder } from "../embedders/hash-embedder";
import type { Embedder } from "../embedders/embedder";
import { DEFAULT_CHUNKING } from "../types";
import { IngestThreads } from "./ingest-threads";
import { processDocument } from "./process-document";

const text = (value: string) => new TextEncoder().encode(value);

/** Prose with no blank line: one paragraph of about `megabytes` MB, the case that froze the server. */
function longParagraph(megabytes: number): Uint8Array {
  const sentence = "The travel policy covers flights, hotels and meals for every employee on a trip. ";
  return text(sentence.repeat(Math.ceil((megabytes * 1024 * 1024) / sentence.length)));
}

const threads = new IngestThreads();
const strict = new IngestThreads({ timeBudgetMs: 1 });

afterAll(async () => {
  await threads.close();
  await strict.close();
});

describe("IngestThreads", () => {
  it("gives the chunks and offline embeddings that processing on this thread gives", async () => {
    const file = {
      kind: "md" as const,
      bytes: text("# Refunds\n\nRefunds within 30 days. Ask Dr. Lee.\n\n## Exceptions\n\nSale items are final."),
    };
    const here = await processDocument(file, DEFAULT_CHUNKING, createHashEmbedder());
    const there = await threads.process(file, DEFAULT_CHUNKING, createHashEmbedder());
    expect(there).toEqual(here);
    expect(there.chunks[0]?.content).toContain("Refunds within 30 days.");
  });

  it("keeps this thread's event loop turning while a large document is chunked", async () => {
    // A timer turn every millisecond or so; a busy loop would take a core from the thread it watches.
    let turns = 0;
    let done = false;
    const turn = () => {
      turns++;
      if (!done) setTimeout(turn, 1);
    };
    setTimeout(turn, 1);
    const result = await threads.process(
      { kind: "txt", bytes: longParagraph(1) },
      DEFAULT_CHUNKING,
      createHashEmbedder(),
    );
    done = true;
    expect(result.chunks.length).toBeGreaterThan(150);
    expect(result.chunks.every((chunk) => chunk.tokenCount <= DEFAULT_CHUNKING.chunkSize)).toBe(true);
    // Chunking 1 MB on this thread holds the loop for about a second in no more than a few turns.
    expect(turns).toBeGreaterThan(50);
  });

  it("embeds through a provider's embedder on this thread, after chunking there", async () => {
    const received: string[][] = [];
    const provider: Embedder = {
      id: "test/embedder",
      maxBatchSize: 2,
      async embed(texts) {
        received.push(texts);
        return {
          embeddings: texts.map(() => [1, 0]),
          usage: { tokens: { prompt: 3, completion: 0, total: 3 }, cost: { input: 0.5, output: 0, total: 0.5 } },
        };
      },
    };
    const result = await threads.process({ kind: "txt", bytes: text("One.\n\nTwo.") }, DEFAULT_CHUNKING, provider);
    expect(received).toEqual([["One.\n\nTwo."]]);
    expect(result.chunks.map((chunk) => chunk.embedding)).toEqual([[1, 0]]);
    expect(result.usage.cost?.total).toBe(0.5);
  });

  it("fails a file it cannot read (invalid, or nested too deep) with the parser's message, and takes the next file", async () => {
    await expect(
      threads.process({ kind: "json", bytes: text("{ nope") }, DEFAULT_CHUNKING, createHashEmbedder()),
    ).rejects.toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/^the JSON is not valid/),
    });
    const deep = text(`{"faq":${"[".repeat(50_000)}${"]".repeat(50_000)}}`);
    await expect(
      threads.process({ kind: "json", bytes: deep }, DEFAULT_CHUNKING, createHashEmbedder()),
    ).rejects.toMatchObject({
      code: "document_unreadable",
      message: expect.stringMatching(/^the JSON is nested deeper than the limit of 100 levels/),
    });
    const next = await threads.process(
      { kind: "json", bytes: text('{"question": "Refunds?"}') },
      DEFAULT_CHUNKING,
      createHashEmbedder(),
    );
    expect(next.chunks[0]?.content).toBe("question: Refunds?");
  });

  it("stops a document past its time budget with a message naming the budget and its setting", async () => {
    await expect(
      strict.process({ kind: "txt", bytes: longParagraph(1) }, DEFAULT_CHUNKING, createHashEmbedder()),
    ).rejects.toMatchObject({
      code: "timeout",
      retryable: false,
      message:
        "Processing took longer than its time budget of 1 ms per document and was stopped (TRELLIS_INGEST_TIME_BUDGET_MS=1)",
    });
  });

  it("ends a document in progress when the caller stops", async () => {
    const controller = new AbortController();
    const pending = threads.process(
      { kind: "txt", bytes: longParagraph(1) },
      DEFAULT_CHUNKING,
      createHashEmbedder(),
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "cancelled" });
  });
});

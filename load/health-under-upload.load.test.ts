/**
 * Health during a heavy upload (issue 15): a 2 MB plain text with no blank line froze every
 * request for 40 to 47 s while its sentences were split on the main thread. Now a 10 MB one (the
 * per-file limit) is parsed, chunked and embedded off the request path: health asked every 20 ms
 * from the start of the upload until the document is ready answers within HEALTH_P99_BOUND_MS at
 * p99, and the document ends ready.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthDuring } from "./health-during";
import { createKnowledgeBase, expectStatus, upload, waitForDocument, type Answer } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";
import { RssSampler } from "./measure";

/** The bound on health's p99 while the upload is received and processed. */
export const HEALTH_P99_BOUND_MS = 100;
/** 10 MB, just under the 10 MiB per-file limit. */
export const UPLOAD_BYTES = 10_000_000;
/** Longer than the default ingestion budget (2 minutes), so the budget, not this, decides a slow document. */
const DOCUMENT_TIMEOUT_MS = 180_000;

const WORDS = (
  "the a of and to in ledger river quiet system answer under over morning figure carried stone window " +
  "measured slowly bright market paper north garden engine signal between across early silver common"
).split(" ");

/** Prose in one paragraph: sentences of 6 to 20 words, no line breaks at all, seeded so every run sends the same text. */
function oneParagraph(size: number): Buffer {
  let seed = 15;
  const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const sentences: string[] = [];
  let length = 0;
  while (length < size) {
    const count = 6 + Math.floor(next() * 15);
    const words = Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    const sentence = `${words.join(" ").replace(/^./, (first) => first.toUpperCase())}${next() < 0.1 ? "?" : "."} `;
    sentences.push(sentence);
    length += sentence.length;
  }
  return Buffer.from(sentences.join("")).subarray(0, size);
}

describe("health during a 10 MB upload", () => {
  let app: LoadApp;

  beforeAll(async () => {
    app = await startLoadApp("health-under-upload");
  });

  afterAll(async () => {
    await app?.close();
  });

  it(`answers health within ${HEALTH_P99_BOUND_MS} ms at p99 while a 10 MB paragraph is uploaded and processed`, async () => {
    const baseId = await createKnowledgeBase(app, "Health under upload");
    const text = oneParagraph(UPLOAD_BYTES);
    const file = { name: "one-paragraph.txt", size: text.length, content: () => [text] };

    const memory = new RssSampler(app.webPid, 100);
    memory.start();
    let uploaded: Answer | undefined;
    let uploadAnsweredMs = 0;
    const {
      result: outcome,
      health,
      failures,
      workMs: processedMs,
    } = await healthDuring(app, async () => {
      const started = performance.now();
      uploaded = await upload(app, baseId, file);
      uploadAnsweredMs = performance.now() - started;
      const documentId = expectStatus<{ documents: Array<{ id: string }> }>("the 10 MB upload", uploaded, 202)
        .documents[0]!.id;
      return waitForDocument(app, baseId, documentId, DOCUMENT_TIMEOUT_MS);
    });
    const rss = memory.stop();

    report("health during a 10 MB upload", {
      ...health,
      boundP99Ms: HEALTH_P99_BOUND_MS,
      failures: failures.length,
      database: app.database,
    });
    report("10 MB upload", {
      uploadAnsweredMs: Math.round(uploadAnsweredMs),
      readyAfterMs: Math.round(processedMs),
      status: outcome?.status,
      chunks: outcome?.chunkCount,
      error: outcome?.error,
    });
    report("10 MB upload server RSS (MB)", rss);

    expect.soft(failures, "health requests that failed").toEqual([]);
    expect.soft(outcome?.status, "the document's final status").toBe("ready");
    expect.soft(health.p99Ms, "health p99 (ms)").toBeLessThan(HEALTH_P99_BOUND_MS);
  });
});

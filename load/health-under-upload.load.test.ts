/**
 * Health during a heavy upload (issue 15): a 2 MB plain text with no blank line froze every
 * request for 40 to 47 s while its sentences were split on the main thread. Now a 10 MB one (the
 * per-file limit) is parsed, chunked and embedded off the request path: health asked every 20 ms
 * from the start of the upload until the document is ready answers within HEALTH_P99_BOUND_MS at
 * p99, and the document ends ready.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, createKnowledgeBase, expectStatus, upload, waitForDocument, type Answer } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";
import { latencyFigures, RssSampler } from "./measure";

/** The bound on health's p99 while the upload is received and processed. */
export const HEALTH_P99_BOUND_MS = 100;
/** 10 MB, just under the 10 MiB per-file limit. */
export const UPLOAD_BYTES = 10_000_000;
export const HEALTH_EVERY_MS = 20;
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

    // On a fixed schedule, not one after another: a stalled server must show as slow answers, not as fewer questions.
    const latencies: number[] = [];
    const failures: string[] = [];
    const inFlight = new Set<Promise<void>>();
    const ask = () => {
      const sent = performance.now();
      const pending = callApi(app, "GET", "/api/health")
        .then((answer) => {
          latencies.push(performance.now() - sent);
          if (answer.status !== 200) failures.push(`HTTP ${answer.status}`);
        })
        .catch((error: unknown) => void failures.push(String(error)))
        .finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    };
    const memory = new RssSampler(app.webPid, 100);
    memory.start();
    const timer = setInterval(ask, HEALTH_EVERY_MS);
    const started = performance.now();

    let uploaded: Answer | undefined;
    let outcome: Awaited<ReturnType<typeof waitForDocument>> | undefined;
    let uploadAnsweredMs = 0;
    try {
      uploaded = await upload(app, baseId, file);
      uploadAnsweredMs = performance.now() - started;
      const documentId = expectStatus<{ documents: Array<{ id: string }> }>("the 10 MB upload", uploaded, 202).documents[0]!.id;
      outcome = await waitForDocument(app, baseId, documentId, DOCUMENT_TIMEOUT_MS);
    } finally {
      clearInterval(timer);
      await Promise.all([...inFlight]);
    }
    const processedMs = performance.now() - started;
    const rss = memory.stop();
    const health = latencyFigures(latencies);

    report("health during a 10 MB upload", { ...health, boundP99Ms: HEALTH_P99_BOUND_MS, failures: failures.length, database: app.database });
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

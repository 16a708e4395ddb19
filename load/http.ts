/**
 * The API calls the load cases make, over undici as a script would. Bodies of uploads are
 * streamed from generators, so a 200 MB upload never sits in the test's memory.
 */
import { Readable } from "node:stream";
import { Agent, request, type Dispatcher } from "undici";
import { OFFLINE_EMBEDDER_ID, type DocumentStatus, type RunSummary } from "@/contract";
import type { LoadApp } from "./load-app";
import { sleep } from "./measure";

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/** Enough connections that a stalled answer never holds up the next request. */
export const sharedAgent = new Agent({
  connections: 128,
  pipelining: 1,
  headersTimeout: 600_000,
  bodyTimeout: 600_000,
});

export async function callApi(
  app: LoadApp,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
  dispatcher: Dispatcher = sharedAgent,
): Promise<Answer> {
  const answer = await request(`${app.baseUrl}${path}`, {
    method,
    dispatcher,
    headers: body === undefined ? app.headers : { ...app.headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return readAnswer(answer);
}

async function readAnswer(answer: Dispatcher.ResponseData): Promise<Answer> {
  const text = await answer.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text for messages
  }
  return { status: answer.statusCode, body: parsed, text };
}

/** The answer's body when it has the expected status; otherwise an error showing what came back. */
export function expectStatus<T = Record<string, unknown>>(what: string, answer: Answer, status: number): T {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}, not ${status}: ${answer.text.slice(0, 1_000)}`);
  return answer.body as T;
}

export async function createKnowledgeBase(app: LoadApp, name: string): Promise<string> {
  const base = expectStatus(
    "POST /api/knowledge-bases",
    await callApi(app, "POST", "/api/knowledge-bases", { name, embeddingModel: OFFLINE_EMBEDDER_ID }),
    201,
  );
  return String(base.id);
}

export interface UploadFile {
  name: string;
  size: number;
  /** Yields exactly `size` bytes, lazily. */
  content: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** A multipart/form-data body with one `file` part, streamed, with its exact length. */
function multipart(file: UploadFile): { contentType: string; length: number; body: Readable } {
  const boundary = `----trellis-load-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    yield* file.content();
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    body: Readable.from(parts()),
  };
}

export async function upload(app: LoadApp, knowledgeBaseId: string, file: UploadFile): Promise<Answer> {
  const form = multipart(file);
  const answer = await request(`${app.baseUrl}/api/knowledge-bases/${knowledgeBaseId}/documents`, {
    method: "POST",
    dispatcher: sharedAgent,
    headers: { ...app.headers, "content-type": form.contentType, "content-length": String(form.length) },
    body: form.body,
  });
  return readAnswer(answer);
}

/**
 * A file of `size` bytes of one repeated line, made as it is sent (one 64 KB chunk, yielded again
 * and again); `onChunk` hears how many bytes the sender has taken so far.
 */
export function repeatedLines(
  name: string,
  size: number,
  line = "The quick brown fox jumps over the lazy dog.\n",
  onChunk: (bytes: number) => void = () => {},
): UploadFile {
  const chunk = Buffer.alloc(64 * 1024, line);
  return {
    name,
    size,
    content: function* () {
      for (let sent = 0; sent < size; sent += chunk.length) {
        const part = size - sent >= chunk.length ? chunk : chunk.subarray(0, size - sent);
        onChunk(part.length);
        yield part;
      }
    },
  };
}

/** Polls a document until it is ready or failed, or `timeoutMs` passes. */
export async function waitForDocument(
  app: LoadApp,
  knowledgeBaseId: string,
  documentId: string,
  timeoutMs: number,
): Promise<{ status: DocumentStatus | "timed out"; error: string | null; chunkCount: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answer = await callApi(app, "GET", `/api/knowledge-bases/${knowledgeBaseId}/documents/${documentId}`);
    const document = expectStatus<{ status: DocumentStatus; error: string | null; chunkCount: number }>(
      "GET document",
      answer,
      200,
    );
    if (document.status === "ready" || document.status === "failed") return document;
    await sleep(250);
  }
  return { status: "timed out", error: null, chunkCount: 0 };
}

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

/**
 * Waits until every run in `ids` has ended, reading the workflow's newest runs a page at a time
 * (one request for up to 200 runs, where polling each run would add hundreds of requests to the
 * load being measured).
 */
export async function waitForRuns(
  app: LoadApp,
  workflowId: string,
  ids: string[],
  timeoutMs: number,
): Promise<Map<string, RunSummary>> {
  const wanted = new Set(ids);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Map<string, RunSummary>();
    let cursor: string | null = null;
    do {
      const query: string = `/api/workflows/${workflowId}/runs?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = expectStatus<{ runs: RunSummary[]; nextCursor: string | null }>(
        "GET runs",
        await callApi(app, "GET", query),
        200,
      );
      for (const run of page.runs) if (wanted.has(run.id)) seen.set(run.id, run);
      cursor = seen.size < wanted.size ? page.nextCursor : null;
    } while (cursor);
    const unfinished = ids.filter((id) => !FINISHED.has(seen.get(id)?.status ?? ""));
    if (unfinished.length === 0) return seen;
    if (Date.now() > deadline)
      throw new Error(`${unfinished.length} of ${ids.length} runs had not ended after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestError } from "@/lib/http/errors";
import { readUploadForm } from "./read-upload";

/**
 * A real upload over loopback, refused half-way: the server answers 413 while the client is still
 * sending. On Node 24 (undici 7) an in-process FormData body cancelled mid-stream rejects a promise
 * nobody handles; this checks the server's side of a real upload never does.
 */
const MB = 1024 * 1024;
const limits = { maxFileBytes: 1 * MB, maxFiles: 2 };
const BOUNDARY = "trellis-http-boundary";
let root: string;
let server: Server;
let origin: string;
const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);

/** The web Request as Next's NextRequestAdapter builds it for a route handler: the Node request itself is the body. */
function asNextRequest(message: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) if (typeof value === "string") headers.set(name, value);
  const init = { method: message.method, headers, body: message, duplex: "half" };
  return new Request(`${origin}${message.url}`, init as unknown as RequestInit);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "read-upload-http-"));
  process.on("unhandledRejection", record);
  server = createServer((message, answer) => {
    readUploadForm(asNextRequest(message), limits, root).then(
      async (form) => {
        await form.dispose();
        answer.writeHead(201).end();
      },
      (error: unknown) => {
        const status = error instanceof RequestError && error.code === "too_large" ? 413 : 500;
        answer.writeHead(status, { "content-type": "application/json", connection: "close" });
        answer.end(JSON.stringify({ message: error instanceof Error ? error.message : String(error) }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  process.off("unhandledRejection", record);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
});

/** Sends a 200 MB file part in 64 KB writes until the server answers or hangs up. */
function sendHugeUpload(): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const outgoing = httpRequest(`${origin}/upload`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    });
    outgoing.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, sent }));
    });
    // The server closes the connection after answering; writes still in flight then fail, as a browser's would.
    outgoing.on("error", (error) => (answered ? undefined : reject(error)));
    outgoing.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\n\r\n`);
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!answered && !outgoing.destroyed && sent < 200 * MB) {
        sent += piece.length;
        if (!outgoing.write(piece)) return void outgoing.once("drain", pump);
      }
      if (!answered && !outgoing.destroyed) outgoing.end(`\r\n--${BOUNDARY}--\r\n`);
    };
    pump();
  });
}

describe("a real upload refused half-way", () => {
  it("answers 413 while the client is still sending, stops reading, leaves no file and no unhandled rejection", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await sendHugeUpload();
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toEqual({ message: '"huge.txt" is over 1 MB; files may be at most 1 MB' });
      // The client stopped long before its 200 MB: the server read little past the limit.
      expect(result.sent).toBeLessThan(50 * MB);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unhandled).toEqual([]);
    expect(await readdir(root)).toEqual([]);
  });
});

/**
 * A multipart upload whose file part is produced as it is read, as a slow client sends it: the
 * test learns how much of the body the server pulled and whether it hung up.
 */
export interface StreamedUpload {
  request: Request;
  /** Bytes of the file part handed to the server so far. */
  pulled(): number;
  /** Whether the server cancelled the body (stopped reading it). */
  cancelled(): boolean;
}

const BOUNDARY = "trellis-test-boundary";
const encoder = new TextEncoder();

export function streamedUpload(options: {
  name: string;
  bytes: number;
  field?: string;
  headers?: Record<string, string>;
}): StreamedUpload {
  const head = encoder.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${options.field ?? "file"}"; filename="${options.name}"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${BOUNDARY}--\r\n`);
  const piece = new Uint8Array(64 * 1024).fill(0x61);
  let pulled = 0;
  let cancelled = false;
  let headSent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!headSent) {
          headSent = true;
          controller.enqueue(head);
        } else if (pulled >= options.bytes) {
          controller.enqueue(tail);
          controller.close();
        } else {
          const size = Math.min(piece.length, options.bytes - pulled);
          pulled += size;
          controller.enqueue(piece.slice(0, size));
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const init = {
    method: "POST",
    body,
    duplex: "half",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...options.headers },
  };
  return {
    request: new Request("http://localhost/api/knowledge-bases/x/documents", init as RequestInit),
    pulled: () => pulled,
    cancelled: () => cancelled,
  };
}

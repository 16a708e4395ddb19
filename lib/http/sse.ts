import "server-only";
/** Server-Sent Events framing for the run event stream (docs/CONTRACT.md section 6). */

export interface SseMessage {
  id: number;
  event: string;
  data: unknown;
}

const encoder = new TextEncoder();

export function formatSse(message: SseMessage): Uint8Array {
  return encoder.encode(`id: ${message.id}\nevent: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);
}

/**
 * The most a stream holds for a client that reads slower than events come (or not at all): past
 * it the stream stops taking events and reads them from storage once the client has caught up,
 * so a stalled reader costs the server this much and no more.
 */
export const SSE_QUEUE_LIMIT_BYTES = 1024 * 1024;

/** Counts a stream's queue in bytes, so its high-water mark is SSE_QUEUE_LIMIT_BYTES (or the given one). */
export function sseQueuingStrategy(limitBytes = SSE_QUEUE_LIMIT_BYTES): QueuingStrategy<Uint8Array> {
  return { highWaterMark: limitBytes, size: (chunk) => chunk.byteLength };
}

/** A comment line keeps proxies from closing an idle stream. */
export const SSE_HEARTBEAT = encoder.encode(": keep-alive\n\n");

export const SSE_HEADERS: HeadersInit = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/** Parses the Last-Event-ID header (or `?after=` query) into a sequence number, 0 if absent. */
export function lastEventId(request: Request): number {
  const header = request.headers.get("last-event-id");
  const query = new URL(request.url).searchParams.get("after");
  const value = Number(header ?? query ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

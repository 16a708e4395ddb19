import "server-only";
import type { RequestError } from "./errors";

/**
 * Reads a request body, stopping as soon as it passes `maxBytes`: the stream is cancelled and the
 * error `tooLarge(bytesSoFar)` makes is thrown, so an oversized body is never held in memory.
 */
export async function readBodyCapped(
  request: Request,
  maxBytes: number,
  tooLarge: (bytesSoFar: number) => RequestError,
): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(size);
    }
    parts.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}

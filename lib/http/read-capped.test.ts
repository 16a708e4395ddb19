import { describe, expect, it } from "vitest";
import { RequestError } from "./errors";
import { readBodyCapped } from "./read-capped";

/** A streamed body with no Content-Length, sent in 1 KB pieces; records whether it was cancelled. */
function streamedRequest(pieces: number) {
  const state = { sent: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.sent === pieces) return controller.close();
      state.sent += 1;
      controller.enqueue(new Uint8Array(1024).fill(65));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return {
    request: new Request("http://localhost/upload", { method: "POST", body, duplex: "half" } as RequestInit),
    state,
  };
}

const tooLarge = (size: number) => new RequestError("too_large", `at least ${size} bytes`);

describe("readBodyCapped", () => {
  it("returns every byte of a body within the cap", async () => {
    const { request } = streamedRequest(3);
    const body = await readBodyCapped(request, 4096, tooLarge);
    expect(body.byteLength).toBe(3072);
    expect(new TextDecoder().decode(body.slice(0, 3))).toBe("AAA");
  });

  it("stops reading as soon as the cap is passed, cancels the stream and says how much came", async () => {
    const { request, state } = streamedRequest(1000);
    await expect(readBodyCapped(request, 4096, tooLarge)).rejects.toMatchObject({
      code: "too_large",
      message: "at least 5120 bytes",
    });
    expect(state.cancelled).toBe(true);
    expect(state.sent).toBeLessThan(10);
  });
});

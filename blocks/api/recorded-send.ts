import "server-only";
import { recordedCall, type BlockMemo } from "@/executor";
import type { GuardedFetch, OutboundResponse } from "@/net";

/** An answer kept in the memo as JSON, with the body's bytes in base64. */
const encode = (response: OutboundResponse) => ({ ...response, body: response.body.toString("base64") });
const decode = (stored: unknown): OutboundResponse => {
  const kept = stored as Omit<OutboundResponse, "body"> & { body: string };
  return { ...kept, body: Buffer.from(kept.body, "base64") };
};

/**
 * The API block's send through its memo, each attempt in order: a resumed block does not send a
 * request twice, and a replay gets the answers its source run got and sends nothing.
 */
export function recordedSend(fetch: GuardedFetch, memo: BlockMemo | undefined): GuardedFetch {
  if (!memo) return fetch;
  return (request) => {
    const { url, method, headers, body } = request;
    const asked = {
      url,
      method,
      headers,
      body: body instanceof Uint8Array ? Buffer.from(body).toString("base64") : body,
    };
    return recordedCall(memo, "http", `${method ?? "GET"} request`, () => fetch(request), { asked, encode, decode });
  };
}

import "server-only";
import { BlockExecutionError } from "@/executor";
import type { OutboundRequest } from "@/net";
import type { ApiConfig } from "./definition";
import { encodeApiBody } from "./request-body";

/** The request an API block sends, before the outbound guard: everything but the signal. */
export type ApiRequest = Required<Pick<OutboundRequest, "url" | "method" | "headers">> &
  Pick<OutboundRequest, "body" | "timeoutMs">;

const hasHeader = (headers: Record<string, string>, name: string) =>
  Object.keys(headers).some((key) => key.toLowerCase() === name);

/** `query` rows appended to the URL's own query (a list value repeats its key; an empty value is kept, null is left out). */
export function urlWithQuery(url: string, query: ApiConfig["query"]): string {
  if (!query || Object.keys(query).length === 0) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BlockExecutionError(
      `url is not a valid URL, so its query parameters cannot be added: give an absolute http or https URL`,
      {
        code: "invalid_config",
      },
    );
  }
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null) parsed.searchParams.append(name, String(item));
    }
  }
  return parsed.href;
}

/** Builds the block's request from its resolved config: URL with its query rows, headers, and the body its `bodyType` encodes. */
export async function buildApiRequest(config: ApiConfig): Promise<ApiRequest> {
  const headers: Record<string, string> = {
    accept: "application/json, text/plain;q=0.9, */*;q=0.5",
    ...config.headers,
  };
  const encoded = await encodeApiBody(config);
  if (encoded?.contentType) {
    if (config.bodyType === "multipart") {
      // The boundary in the Content-Type must be the one the body was written with.
      if (hasHeader(headers, "content-type")) {
        throw new BlockExecutionError(
          'With bodyType "multipart", Trellis sets Content-Type (it names the parts\' boundary); remove the Content-Type header',
          {
            code: "invalid_config",
          },
        );
      }
      headers["content-type"] = encoded.contentType;
    } else if (!hasHeader(headers, "content-type")) headers["content-type"] = encoded.contentType;
  }
  return {
    url: urlWithQuery(config.url, config.query),
    method: config.method,
    headers,
    body: encoded?.body,
    timeoutMs: config.timeoutMs,
  };
}

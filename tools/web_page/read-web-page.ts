import { BlockExecutionError } from "@/core";
import type { GuardedFetch } from "@/net";
import { extractReadableText, type ReadablePage } from "./readable-text";

export interface WebPage {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  title: string;
  text: string;
  truncated: boolean;
}

export interface ReadWebPageOptions {
  maxChars: number;
  timeoutMs?: number;
  /** Pages larger than this are refused; parsing is CPU work on the server. Default 5 MB. */
  maxPageBytes?: number;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024;

function readBody(body: Buffer, contentType: string | undefined, url: string): ReadablePage {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const looksLikeHtml = type === "" && /^\s*</.test(body.subarray(0, 512).toString("utf8"));
  if (type === "text/html" || type === "application/xhtml+xml" || looksLikeHtml)
    return extractReadableText(body, { url, contentType });
  if (
    type.startsWith("text/") ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "application/xml" ||
    type === ""
  ) {
    return { title: "", text: body.toString("utf8").trim() };
  }
  throw new BlockExecutionError(`${new URL(url).host} answered with ${type}, which is not a web page or text`, {
    code: "unsupported_content",
  });
}

/**
 * Fetches a page through the outbound guard and returns its readable text and title (see
 * readable-text.ts), cut at `maxChars`. A 4xx or 5xx answer is an error. Shared by the Web block
 * and the `web_page` agent tool.
 */
export async function readWebPage(fetch: GuardedFetch, url: string, options: ReadWebPageOptions): Promise<WebPage> {
  const response = await fetch({
    url,
    headers: { accept: "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5" },
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
    signal: options.signal,
  });
  const finalUrl = new URL(response.url);
  if (response.status >= 400) {
    throw new BlockExecutionError(`${finalUrl.host}${finalUrl.pathname} answered ${response.status}`, {
      code: "http_error",
      retryable: response.status >= 500 || response.status === 429,
    });
  }
  const page = readBody(response.body, response.headers["content-type"], response.url);
  const truncated = page.text.length > options.maxChars;
  return {
    url: response.url,
    status: response.status,
    title: page.title,
    text: truncated ? page.text.slice(0, options.maxChars) : page.text,
    truncated,
  };
}

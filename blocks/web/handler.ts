import { BlockExecutionError } from "@/executor/errors";
import type { BlockHandler } from "@/executor/handler";
import type { GuardedFetch } from "@/net";
import { webConfigSchema } from "./definition";
import { extractReadableText, type ReadablePage } from "./readable-text";

export interface WebHandlerDeps {
  /** createGuardedFetch(...) from net/, configured with OUTBOUND_ALLOW_HOSTS. */
  fetch: GuardedFetch;
  /** Pages larger than this are refused; parsing is CPU work on the server. Default 5 MB. */
  maxPageBytes?: number;
}

const DEFAULT_MAX_PAGE_BYTES = 5 * 1024 * 1024;

function readPage(body: Buffer, contentType: string | undefined, url: string): ReadablePage {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const looksLikeHtml = type === "" && /^\s*</.test(body.subarray(0, 512).toString("utf8"));
  if (type === "text/html" || type === "application/xhtml+xml" || looksLikeHtml) return extractReadableText(body, { url, contentType });
  if (type.startsWith("text/") || type === "application/json" || type.endsWith("+json") || type === "application/xml" || type === "") {
    return { title: "", text: body.toString("utf8").trim() };
  }
  throw new BlockExecutionError(`${new URL(url).host} answered with ${type}, which is not a web page or text`, { code: "unsupported_content" });
}

/**
 * The Web block: fetches a page through the outbound guard and returns its readable text and
 * title (see readable-text.ts), cut at `maxChars`. A 4xx or 5xx answer fails the block.
 */
export function createWebHandler(deps: WebHandlerDeps): BlockHandler {
  return async ({ config: rawConfig, context }) => {
    const parsed = webConfigSchema.safeParse(rawConfig);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "config"}: ${issue.message}`).join("; ");
      throw new BlockExecutionError(`Invalid web config: ${problems}`, { code: "invalid_config" });
    }
    const config = parsed.data;
    const response = await deps.fetch({
      url: config.url,
      headers: { accept: "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5" },
      timeoutMs: config.timeoutMs,
      maxResponseBytes: deps.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
      signal: context.signal,
    });
    const finalUrl = new URL(response.url);
    if (response.status >= 400) {
      throw new BlockExecutionError(`${finalUrl.host}${finalUrl.pathname} answered ${response.status}`, { code: "http_error", retryable: response.status >= 500 || response.status === 429 });
    }
    const page = readPage(response.body, response.headers["content-type"], response.url);
    const truncated = page.text.length > config.maxChars;
    const text = truncated ? page.text.slice(0, config.maxChars) : page.text;
    return { output: { url: response.url, status: response.status, title: page.title, text, truncated } };
  };
}

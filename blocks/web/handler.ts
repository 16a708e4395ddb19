import "server-only";
import { recordedCall, type BlockHandler } from "@/executor";
import type { GuardedFetch } from "@/net";
import { readWebPage } from "@/tools/web_page";
import type { WebConfig } from "./definition";
import { simulatedPage } from "./simulated-page";

export interface WebHandlerDeps {
  /** createGuardedFetch(...) from net/, configured with OUTBOUND_ALLOW_HOSTS. */
  fetch: GuardedFetch;
  /** Pages larger than this are refused; parsing is CPU work on the server. Default 5 MB. */
  maxPageBytes?: number;
}

/**
 * The Web block: fetches a page through the outbound guard and returns its readable text and
 * title, cut at `maxChars`. A 4xx or 5xx answer fails the block.
 */
export function createWebHandler(deps: WebHandlerDeps): BlockHandler<WebConfig> {
  return async ({ config, context }) => {
    // Test runs read the block's sample page instead of fetching (simulated-page.ts).
    if (context.simulation) return { output: simulatedPage(config, context.simulation) };
    const { url, maxChars, timeoutMs } = config;
    // A replay reads the page its source run read (the block's memo), never the live one.
    const page = await recordedCall(
      context.memo,
      "page",
      "web page read",
      () =>
        readWebPage(deps.fetch, url, { maxChars, timeoutMs, maxPageBytes: deps.maxPageBytes, signal: context.signal }),
      { asked: { url, maxChars } },
    );
    return { output: { ...page } };
  };
}

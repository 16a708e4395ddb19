import { jsonSchema, tool } from "ai";
import type { GuardedFetch } from "@/net";
import type { ToolProvider, ToolSet } from "../types";
import { readWebPage } from "./read-web-page";

export const WEB_PAGE_TOOL_TYPE = "web_page";

export interface WebPageToolDeps {
  /** createGuardedFetch(...) from net/. */
  fetch: GuardedFetch;
}

/** `web_page`: reads a page's readable text through the outbound guard. Params: `maxChars` (default 8000). */
export function createWebPageToolProvider(deps: WebPageToolDeps): ToolProvider {
  return {
    tools: [
      {
        type: WEB_PAGE_TOOL_TYPE,
        label: "Web page",
        description: "Reads the readable text of a web page (public addresses only).",
        params: [{ name: "maxChars", label: "Longest text (characters)", kind: "number", description: "Default 8000" }],
      },
    ],
    createTools(entries, context) {
      const tools: ToolSet = {};
      for (const entry of entries) {
        const maxChars = typeof entry.params?.maxChars === "number" ? entry.params.maxChars : 8000;
        tools[entry.name ?? WEB_PAGE_TOOL_TYPE] = tool({
          description: "Fetches a web page and returns its title and readable text.",
          inputSchema: jsonSchema<{ url: string }>({
            type: "object",
            properties: { url: { type: "string", description: "An http or https URL" } },
            required: ["url"],
            additionalProperties: false,
          }),
          execute: ({ url }) => readWebPage(deps.fetch, url, { maxChars, signal: context.signal }),
        });
      }
      return tools;
    },
  };
}

import { jsonSchema, tool } from "ai";
import { createDecodedFetch, redactHeaders, type GuardedFetch } from "@/net";
import type { ToolProvider, ToolSet } from "../types";

export const HTTP_REQUEST_TOOL_TYPE = "http_request";
const MAX_BODY_CHARS = 20_000;

export interface HttpRequestToolDeps {
  /** createGuardedFetch(...) from net/. */
  fetch: GuardedFetch;
}

interface HttpRequestInput {
  url: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * `http_request`: an HTTP call through the outbound guard. Params: `headers` added to every
 * request (for example an Authorization header from a `{{SECRET}}`; the model never sees them).
 * The answer's credential headers are redacted and long bodies cut, since it goes to the model.
 */
export function createHttpRequestToolProvider(deps: HttpRequestToolDeps): ToolProvider {
  const decodedFetch = createDecodedFetch(deps.fetch);
  return {
    tools: [{ type: HTTP_REQUEST_TOOL_TYPE, label: "HTTP request", description: "Calls an HTTP API (public addresses only)." }],
    // A request may change things elsewhere: a test run answers it from the agent's sample instead.
    sideEffects: true,
    createTools(entries, context) {
      const tools: ToolSet = {};
      for (const entry of entries) {
        const fixedHeaders = (entry.params?.headers ?? {}) as Record<string, string>;
        tools[entry.name ?? HTTP_REQUEST_TOOL_TYPE] = tool({
          description: "Sends an HTTP request and returns the status, headers and body (JSON parsed).",
          inputSchema: jsonSchema<HttpRequestInput>({
            type: "object",
            properties: {
              url: { type: "string", description: "An http or https URL" },
              method: { type: "string", enum: ["GET", "POST", "PUT", "PATCH", "DELETE"] },
              headers: { type: "object", additionalProperties: { type: "string" } },
              body: { description: "JSON body for POST, PUT and PATCH" },
            },
            required: ["url"],
            additionalProperties: false,
          }),
          execute: async ({ url, method, headers, body }) => {
            const response = await decodedFetch(url, { method, headers: { ...headers, ...fixedHeaders }, body, signal: context.signal });
            const text = typeof response.body === "string" ? response.body : undefined;
            return {
              status: response.status,
              ok: response.ok,
              headers: redactHeaders(response.headers),
              body:
                text !== undefined && text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… [cut at ${MAX_BODY_CHARS} characters]` : response.body,
            };
          },
        });
      }
      return tools;
    },
  };
}

import { jsonSchema, tool, type JSONSchema7 } from "ai";
import { createDecodedFetch, redactHeaders, type GuardedFetch } from "@/net";
import type { ToolProvider, ToolSet } from "../types";

export const HTTP_REQUEST_TOOL_TYPE = "http_request";
const MAX_BODY_CHARS = 20_000;

export interface HttpRequestToolDeps {
  /** createGuardedFetch(...) from net/. */
  fetch: GuardedFetch;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

interface HttpRequestInput {
  url: string;
  method?: Method;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * `http_request`: an HTTP call through the outbound guard. Params: `headers` added to every
 * request (for example an Authorization header from a `{{SECRET}}`; the model never sees them),
 * and `url` and `method` to pre-fill: a pre-filled one is left out of what the model is asked for
 * and every call uses it (an API the agent may call and no other).
 * The answer's credential headers are redacted and long bodies cut, since it goes to the model.
 */
export function createHttpRequestToolProvider(deps: HttpRequestToolDeps): ToolProvider {
  const decodedFetch = createDecodedFetch(deps.fetch);
  return {
    tools: [
      {
        type: HTTP_REQUEST_TOOL_TYPE,
        label: "HTTP request",
        description: "Calls an HTTP API (public addresses only).",
        params: [
          {
            name: "url",
            label: "URL",
            kind: "text",
            description: "Every call goes here; leave empty to let the model choose",
          },
          {
            name: "method",
            label: "Method",
            kind: "select",
            options: [...METHODS],
            description: "Leave empty to let the model choose",
          },
          {
            name: "headers",
            label: "Headers",
            kind: "keyValue",
            description: "Added to every request; the model never sees them",
          },
        ],
      },
    ],
    // A request may change things elsewhere: a test run answers it from the agent's sample instead.
    sideEffects: true,
    createTools(entries, context) {
      const tools: ToolSet = {};
      for (const entry of entries) {
        const fixedHeaders = (entry.params?.headers ?? {}) as Record<string, string>;
        const fixedUrl =
          typeof entry.params?.url === "string" && entry.params.url.trim() ? entry.params.url.trim() : undefined;
        const fixedMethod = METHODS.find((method) => method === entry.params?.method);
        const properties: Record<string, JSONSchema7> = {
          ...(fixedUrl ? {} : { url: { type: "string", description: "An http or https URL" } }),
          ...(fixedMethod ? {} : { method: { type: "string", enum: [...METHODS] } }),
          headers: { type: "object", additionalProperties: { type: "string" } },
          body: { description: "JSON body for POST, PUT and PATCH" },
        };
        tools[entry.name ?? HTTP_REQUEST_TOOL_TYPE] = tool({
          description: fixedUrl
            ? `Sends an HTTP ${fixedMethod ?? "request"} to ${fixedUrl} and returns the status, headers and body (JSON parsed).`
            : "Sends an HTTP request and returns the status, headers and body (JSON parsed).",
          inputSchema: jsonSchema<HttpRequestInput>({
            type: "object",
            properties,
            required: fixedUrl ? [] : ["url"],
            additionalProperties: false,
          }),
          execute: async (input) => {
            const { headers, body } = input;
            const url = fixedUrl ?? input.url;
            const method = fixedMethod ?? input.method;
            const response = await decodedFetch(url, {
              method,
              headers: { ...headers, ...fixedHeaders },
              body,
              signal: context.signal,
            });
            const text = typeof response.body === "string" ? response.body : undefined;
            return {
              status: response.status,
              ok: response.ok,
              headers: redactHeaders(response.headers),
              body:
                text !== undefined && text.length > MAX_BODY_CHARS
                  ? `${text.slice(0, MAX_BODY_CHARS)}… [cut at ${MAX_BODY_CHARS} characters]`
                  : response.body,
            };
          },
        });
      }
      return tools;
    },
  };
}

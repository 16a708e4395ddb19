import { z } from "zod";
import { isReservedRequestHeader, RESERVED_HEADER_MESSAGE, withoutReservedKeys } from "@/contract";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

/**
 * Header names are names users choose, and some belong to the client (Host, Content-Length, ...):
 * both rules apply at save and again when a reference brings the headers in at run time.
 */
const headersSchema = withoutReservedKeys(z.record(z.string(), z.string())).superRefine((headers, context) => {
  for (const name of Object.keys(headers)) {
    if (isReservedRequestHeader(name))
      context.addIssue({ code: "custom", path: [name], message: RESERVED_HEADER_MESSAGE, input: headers });
  }
});

const queryValue = z.union([z.string(), z.number(), z.boolean()]);

/** Query parameters as rows; a reference may bring in a number, or a list (the name repeats); null leaves one out. */
const querySchema = withoutReservedKeys(z.record(z.string(), z.union([queryValue, z.array(queryValue), z.null()])));

export const API_BODY_TYPES = ["json", "form", "multipart", "text"] as const;

export const apiConfigSchema = z.object({
  url: z.string().min(1, "is required"),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
  query: querySchema.optional(),
  headers: headersSchema.optional(),
  /** How `body` is sent; documents from before it existed are `json`, which sends a string body as written. */
  bodyType: z.enum(API_BODY_TYPES).default("json"),
  body: z.unknown().optional(),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
  retries: z.number().int().min(0).max(5).default(0),
});

export type ApiConfig = z.infer<typeof apiConfigSchema>;

export const apiDefinition = {
  type: "api",
  label: "API",
  icon: "Globe",
  category: "tools",
  description: "Calls an HTTP API through the outbound guard.",
  configSchema: apiConfigSchema,
  fields: [
    {
      key: "url",
      label: "URL",
      kind: "text",
      placeholder: "https://api.example.com/items",
      needs: "Enter the URL to call",
    },
    {
      key: "method",
      label: "Method",
      kind: "select",
      options: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].map((method) => ({ value: method, label: method })),
    },
    {
      key: "query",
      label: "Query parameters",
      kind: "keyValue",
      placeholder: "param",
      help: "Added to the URL's own query; values may hold references.",
    },
    { key: "headers", label: "Headers", kind: "keyValue", placeholder: "Header" },
    {
      key: "bodyType",
      label: "Body type",
      kind: "select",
      options: [
        { value: "json", label: "JSON" },
        { value: "form", label: "Form (URL-encoded)" },
        { value: "multipart", label: "Multipart form-data" },
        { value: "text", label: "Text" },
      ],
    },
    { key: "body", label: "Body", kind: "json", showWhen: { key: "bodyType", equals: ["", "json", "text"] } },
    {
      key: "body",
      label: "Form fields",
      kind: "keyValue",
      placeholder: "field",
      help: "A multipart field may be a reference to a file { filename, data (base64 or a data: URL), contentType? }.",
      showWhen: { key: "bodyType", equals: ["form", "multipart"] },
    },
    { key: "timeoutMs", label: "Timeout (ms)", kind: "number" },
    { key: "retries", label: "Retries", kind: "number" },
  ],
  outputs: [
    { path: "status", type: "number" },
    { path: "headers", type: "object" },
    { path: "data", type: "any" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  testSamples: { request: "the request" },
  docs: {
    config:
      "`url, method, query?, headers?, bodyType? (json/form/multipart/text, default json), body?, timeoutMs?, retries?`",
    output: "`status, headers, data`",
  },
} satisfies BlockDefinition<typeof apiConfigSchema>;

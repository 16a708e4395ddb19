import { z } from "zod";
import { isReservedRequestHeader, RESERVED_HEADER_MESSAGE, withoutReservedKeys } from "@/contract";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

/**
 * Header names are names users choose, and some belong to the client (Host, Content-Length, ...):
 * both rules apply at save and again when a reference brings the headers in at run time.
 */
const headersSchema = withoutReservedKeys(z.record(z.string(), z.string())).superRefine((headers, context) => {
  for (const name of Object.keys(headers)) {
    if (isReservedRequestHeader(name)) context.addIssue({ code: "custom", path: [name], message: RESERVED_HEADER_MESSAGE, input: headers });
  }
});

export const apiConfigSchema = z.object({
  url: z.string().min(1, "is required"),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
  headers: headersSchema.optional(),
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
    { key: "url", label: "URL", kind: "text", placeholder: "https://api.example.com/items" },
    {
      key: "method",
      label: "Method",
      kind: "select",
      options: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].map((method) => ({ value: method, label: method })),
    },
    { key: "headers", label: "Headers", kind: "keyValue" },
    { key: "body", label: "Body", kind: "json" },
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
} satisfies BlockDefinition<typeof apiConfigSchema>;

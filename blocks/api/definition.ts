import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

export const apiConfigSchema = z.object({
  url: z.string().min(1, "is required"),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
  headers: z.record(z.string(), z.string()).optional(),
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

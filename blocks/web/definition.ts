import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

export const webConfigSchema = z.object({
  url: z.string().min(1, "is required"),
  /** Text beyond this many characters is cut (and `truncated` set). */
  maxChars: z.number().int().min(100).max(1_000_000).default(20_000),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
});

export type WebConfig = z.infer<typeof webConfigSchema>;

export const webDefinition = {
  type: "web",
  label: "Web page",
  icon: "Newspaper",
  category: "tools",
  description: "Fetches a web page through the outbound guard and returns its readable text and title.",
  configSchema: webConfigSchema,
  fields: [
    {
      key: "url",
      label: "URL",
      kind: "text",
      placeholder: "https://example.com/article",
      needs: "Enter the address of the page to read",
    },
    { key: "maxChars", label: "Max characters", kind: "number", help: "Longer text is cut at this length." },
    { key: "timeoutMs", label: "Timeout (ms)", kind: "number" },
  ],
  outputs: [
    { path: "url", type: "string", description: "The page's final URL, after redirects" },
    { path: "status", type: "number" },
    { path: "title", type: "string" },
    { path: "text", type: "string", description: "The readable text of the page" },
    { path: "truncated", type: "boolean" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  testSamples: { page: true },
  docs: {
    config: "`url, maxChars? (default 20000), timeoutMs? (default 30000)`",
    output: "`url` (after redirects), `status, title, text, truncated`",
    note: "an extension",
  },
} satisfies BlockDefinition<typeof webConfigSchema>;

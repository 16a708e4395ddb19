import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { substituteCodeReferences } from "./code-references";
import { substitutePythonReferences } from "./python-references";

export const FUNCTION_LANGUAGES = ["javascript", "python"] as const;
export type FunctionLanguage = (typeof FUNCTION_LANGUAGES)[number];

export const functionConfigSchema = z.object({
  language: z.enum(FUNCTION_LANGUAGES, { error: 'must be "javascript" or "python"' }).default("javascript"),
  code: z.string().min(1, "is required").max(100_000),
  timeoutMs: z.number().int().min(10).max(60_000).default(5_000),
  memoryLimitMb: z.number().int().min(8).max(512).default(64),
});

export type FunctionConfig = z.infer<typeof functionConfigSchema>;

export const functionDefinition = {
  type: "function",
  label: "Function",
  icon: "Code",
  category: "tools",
  description: "Runs JavaScript or Python in a sandbox; returns its result, console output and named outputs.",
  configSchema: functionConfigSchema,
  fields: [
    {
      key: "language",
      label: "Language",
      kind: "select",
      options: [
        { value: "javascript", label: "JavaScript" },
        { value: "python", label: "Python" },
      ],
      help: "JavaScript runs in QuickJS, Python in Pyodide (CPython and its standard library); both sandboxed, with the same services and limits.",
    },
    {
      key: "code",
      label: "Code",
      kind: "code",
      languageKey: "language",
      needs: "Write the code to run",
      help: "Runs sandboxed: a final return gives the result (top-level await works; in Python a main() function may give it instead); <block.field> references become values. services.agent(prompt, options), services.fetch(url, init), services.inputs and services.outputs(name, value) reach the host (await them in Python); there is no file system, process, environment or network otherwise.",
    },
    {
      key: "timeoutMs",
      label: "Time limit (ms)",
      kind: "number",
      help: "CPU time the code may use (waiting on services does not count). The server may allow less (TRELLIS_SANDBOX_MAX_TIMEOUT_MS); the output's sandbox.timeoutCapped then says so.",
    },
    {
      key: "memoryLimitMb",
      label: "Memory limit (MB)",
      kind: "number",
      help: "The code's heap. The server may allow less (TRELLIS_SANDBOX_MAX_MEMORY_MB, 256 by default); the output's sandbox.memoryLimitCapped then says so.",
    },
  ],
  outputs: [
    { path: "result", type: "any" },
    { path: "stdout", type: "string" },
    { path: "outputs", type: "object", description: "Values set with services.outputs(name, value)" },
    {
      path: "sandbox",
      type: "object",
      description:
        "How it ran: queuedMs (waiting for a sandbox slot), cpuTimeMs, and the timeoutMs and memoryLimitMb applied (flagged when capped)",
    },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  testSamples: { request: "every services.fetch" },
  fieldResolvers: {
    code: (code, resolve, config) =>
      config.language === "python"
        ? substitutePythonReferences(code, resolve)
        : substituteCodeReferences(code, resolve),
  },
  docs: {
    config:
      "`code` (sandboxed), `language?` (`javascript` by default, or `python`), `timeoutMs?` (default 5000), `memoryLimitMb?` (default 64)",
    output: "`result, stdout`",
  },
} satisfies BlockDefinition<typeof functionConfigSchema>;

import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { substituteCodeReferences } from "./code-references";

export const functionConfigSchema = z.object({
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
  description: "Runs JavaScript in a sandbox; returns its result, console output and named outputs.",
  configSchema: functionConfigSchema,
  fields: [
    {
      key: "code",
      label: "Code",
      kind: "code",
      needs: "Write the code to run",
      help: "Runs sandboxed (QuickJS): top-level await and return work; <block.field> references become values. services.agent(prompt, options), services.fetch(url, init), services.inputs and services.outputs(name, value) reach the host; there is no require, process or network otherwise.",
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
  fieldResolvers: { code: substituteCodeReferences },
  docs: {
    config: "`code` (JavaScript, sandboxed), `timeoutMs?` (default 5000), `memoryLimitMb?` (default 64)",
    output: "`result, stdout`",
  },
} satisfies BlockDefinition<typeof functionConfigSchema>;

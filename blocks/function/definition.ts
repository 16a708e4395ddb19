import { z } from "zod";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";

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
  description: "Runs JavaScript in a sandbox; returns its result and console output.",
  configSchema: functionConfigSchema,
  fields: [
    { key: "code", label: "Code", kind: "code" },
    { key: "timeoutMs", label: "Time limit (ms)", kind: "number" },
    { key: "memoryLimitMb", label: "Memory limit (MB)", kind: "number" },
  ],
  outputs: [
    { path: "result", type: "any" },
    { path: "stdout", type: "string" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
} satisfies BlockDefinition<typeof functionConfigSchema>;

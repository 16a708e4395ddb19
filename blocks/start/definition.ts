import { z } from "zod";
import { reservedName } from "@/contract";
import { OUT_HANDLE, type BlockDefinition } from "../types";

export const startInputSchema = z.object({
  name: reservedName(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a valid identifier")),
  type: z.enum(["string", "number", "boolean", "object", "array"]).default("string"),
  description: z.string().optional(),
  default: z.unknown().optional(),
});

export const startConfigSchema = z.object({
  inputs: z.array(startInputSchema).default([]),
});

export type StartConfig = z.infer<typeof startConfigSchema>;

export const startDefinition = {
  type: "start",
  label: "Start",
  icon: "Play",
  category: "core",
  description: "Where a run begins. Its inputs become the run's input object.",
  configSchema: startConfigSchema,
  fields: [{ key: "inputs", label: "Inputs", kind: "inputs" }],
  outputs: [{ path: "*", type: "any", description: "Each declared input by name" }],
  acceptsInput: false,
  sourceHandles: () => [OUT_HANDLE],
  entry: true,
  docs: { config: "`inputs: [{name, type, description?, default?}]`", output: "the run's input object" },
} satisfies BlockDefinition<typeof startConfigSchema>;

import { z } from "zod";
import type { BlockDefinition } from "../types";

export const responseConfigSchema = z.object({
  data: z.unknown().optional(),
});

export type ResponseConfig = z.infer<typeof responseConfigSchema>;

export const responseDefinition = {
  type: "response",
  label: "Response",
  icon: "Reply",
  category: "core",
  description: "Ends the run; its data becomes the run's output.",
  configSchema: responseConfigSchema,
  fields: [{ key: "data", label: "Data", kind: "json" }],
  outputs: [{ path: "data", type: "any" }],
  acceptsInput: true,
  sourceHandles: () => [],
  terminal: true,
  docs: { config: "`data`", output: "ends the run; `data` becomes the run's output" },
} satisfies BlockDefinition<typeof responseConfigSchema>;

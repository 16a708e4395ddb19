import { z } from "zod";
import { sizeOf } from "../iteration-size";
import type { BlockDefinition } from "../types";

export const loopConfigSchema = z.object({
  kind: z.enum(["for", "forEach", "while"]).default("for"),
  count: z.union([z.number().int().min(0), z.string()]).optional(),
  collection: z.unknown().optional(),
  condition: z.string().optional(),
  maxIterations: z.number().int().min(1).max(100_000).default(1_000),
});

export type LoopConfig = z.infer<typeof loopConfigSchema>;

export const loopDefinition = {
  type: "loop",
  label: "Loop",
  icon: "Repeat",
  category: "logic",
  description: "Runs the blocks inside it N times, once per item, or while a condition holds.",
  configSchema: loopConfigSchema,
  fields: [
    {
      key: "kind",
      label: "Kind",
      kind: "select",
      options: [
        { value: "for", label: "For N times" },
        { value: "forEach", label: "For each item" },
        { value: "while", label: "While" },
      ],
    },
    { key: "count", label: "Iterations", kind: "number", showWhen: { key: "kind", equals: ["for"] } },
    { key: "collection", label: "Collection", kind: "json", showWhen: { key: "kind", equals: ["forEach"] } },
    { key: "condition", label: "Condition", kind: "text", showWhen: { key: "kind", equals: ["while"] } },
    { key: "maxIterations", label: "Max iterations", kind: "number" },
  ],
  outputs: [{ path: "results", type: "array", description: "One entry per iteration" }],
  acceptsInput: true,
  sourceHandles: () => [
    { id: "body", label: "body", variant: "body" },
    { id: "out", label: "out", variant: "default" },
    { id: "error", label: "error", variant: "error" },
  ],
  container: "loop",
  // `count` times, once per item, or while its condition holds: at most `maxIterations`.
  iterations(config) {
    const most = typeof config.maxIterations === "number" ? config.maxIterations : 1000;
    if (config.kind === "while") return { most };
    const known = sizeOf(config.kind === "forEach" ? config.collection : (config.count ?? config.collection));
    return known === undefined ? { most } : { known: Math.min(known, most) };
  },
  docs: {
    config: "`kind: for/forEach/while, count?, collection?, condition?, maxIterations?`",
    output: "`results` (one entry per iteration)",
  },
} satisfies BlockDefinition<typeof loopConfigSchema>;

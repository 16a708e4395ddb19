import { z } from "zod";
import { sizeOf } from "../iteration-size";
import type { BlockDefinition } from "../types";

export const parallelConfigSchema = z.object({
  kind: z.enum(["count", "collection"]).default("count"),
  count: z.union([z.number().int().min(0), z.string()]).optional(),
  collection: z.unknown().optional(),
  concurrency: z.number().int().min(1).max(256).default(8),
});

export type ParallelConfig = z.infer<typeof parallelConfigSchema>;

export const parallelDefinition = {
  type: "parallel",
  label: "Parallel",
  icon: "Columns3",
  category: "logic",
  description: "Runs the blocks inside it as N copies, or one copy per item, at the same time.",
  configSchema: parallelConfigSchema,
  fields: [
    {
      key: "kind",
      label: "Kind",
      kind: "select",
      options: [
        { value: "count", label: "N copies" },
        { value: "collection", label: "One per item" },
      ],
    },
    { key: "count", label: "Copies", kind: "number", showWhen: { key: "kind", equals: ["count"] } },
    { key: "collection", label: "Collection", kind: "json", showWhen: { key: "kind", equals: ["collection"] } },
    { key: "concurrency", label: "At most at once", kind: "number" },
  ],
  outputs: [{ path: "results", type: "array", description: "One entry per branch" }],
  acceptsInput: true,
  sourceHandles: () => [
    { id: "body", label: "body", variant: "body" },
    { id: "out", label: "out", variant: "default" },
    { id: "error", label: "error", variant: "error" },
  ],
  container: "parallel",
  // One branch per copy or per item.
  iterations: (config) => ({ known: sizeOf(config.kind === "collection" ? config.collection : config.count) }),
  docs: {
    config: "`kind: count/collection, count?, collection?, concurrency?`",
    output: "`results` (one entry per branch)",
  },
} satisfies BlockDefinition<typeof parallelConfigSchema>;

import { z } from "zod";
import { isReservedName, RESERVED_NAME_MESSAGE } from "@/contract";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { buildEvaluatorSystemPrompt } from "./evaluator-prompt";

export const metricSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "is required")
      .regex(/^[A-Za-z][A-Za-z0-9_ ]*$/, "use letters, digits, spaces and _")
      // The lowercased name is the score's key in the output, so "Constructor" is refused as well.
      .refine((name) => !isReservedName(name.toLowerCase()), {
        message: `becomes an output key that ${RESERVED_NAME_MESSAGE}`,
      })
      .refine((name) => name.trim().toLowerCase() !== "reasoning", {
        message: "is the key of the model's reasons (explain): name the metric otherwise",
      }),
    description: z.string().default(""),
    range: z.object({ min: z.number(), max: z.number() }),
  })
  .refine((metric) => metric.range.min < metric.range.max, {
    message: "range.min must be below range.max",
    path: ["range"],
  });

export const evaluatorConfigSchema = z.object({
  model: z.string().min(1, "choose a model").default("offline/echo"),
  content: z.string().min(1, "is required"),
  metrics: z.array(metricSchema).min(1, "add at least one metric"),
  // The model's reasons beside its scores, for a reader (or an evaluation's judge) who needs the why.
  explain: z.boolean().default(false),
  /** Extension: tried in order when the model fails at the provider (providers/model-fallbacks.ts). */
  fallbackModels: z.array(z.string().min(1, "choose a model")).max(3, "at most 3 fallback models").default([]),
});

export type EvaluatorConfig = z.infer<typeof evaluatorConfigSchema>;

export const evaluatorDefinition = {
  type: "evaluator",
  label: "Evaluator",
  icon: "Gauge",
  category: "ai",
  description: "A model scores content against metrics, each within its range.",
  configSchema: evaluatorConfigSchema,
  fields: [
    { key: "model", label: "Model", kind: "model", needs: "Choose a model" },
    { key: "content", label: "Content to evaluate", kind: "prompt", needs: "Choose the content to evaluate" },
    { key: "metrics", label: "Metrics", kind: "metrics", needs: "Add at least one metric to score" },
    { key: "explain", label: "Explain the scores", kind: "toggle" },
  ],
  outputs: [
    { path: "*", type: "number", description: "One score per metric, by lowercased name" },
    { path: "reasoning", type: "string", description: "With explain on: why the content earns its scores" },
    { path: "model", type: "string" },
    { path: "tokens", type: "object" },
    { path: "cost", type: "object" },
  ],
  acceptsInput: true,
  sourceHandles: () => STANDARD_HANDLES,
  // It sends its metrics and the content; invalid scores get one repair call.
  modelUse: {
    model: (config) => config.model,
    promptTexts: (config) => [
      buildEvaluatorSystemPrompt(config.metrics, config.explain),
      `Content to evaluate:\n\n${config.content}`,
    ],
    maxCalls: () => 2,
    maxOutputTokens: () => undefined,
  },
  docs: {
    config:
      "`model, content, metrics: [{name, description, range:{min,max}}], explain` (default false), `fallbackModels?` (up to 3, tried in order on a provider error)",
    output: "one number per metric name (lowercase), `reasoning` when explain is on, `model, tokens, cost`",
  },
} satisfies BlockDefinition<typeof evaluatorConfigSchema>;

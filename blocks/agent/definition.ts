import { z } from "zod";
import { toolEntrySchema } from "@/contract";
import { STANDARD_HANDLES, type BlockDefinition } from "../types";
import { storedReferencesOfTools } from "./stored-references";
import { checkLoopConfig, providerOptionsSchema, pruneToolResultsSchema, stepRuleSchema } from "./step-rules";
import { takenToolHandles, toolOutcomeHandles } from "./tool-outcomes";

export const memorySchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.string(),
});

export const agentConfigSchema = z
  .object({
    model: z.string().min(1, "choose a model").default("offline/echo"),
    systemPrompt: z.string().optional(),
    userPrompt: z.string().min(1, "is required"),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    /** Extension: tried in order when the model fails at the provider before any tool ran or text streamed (providers/model-fallbacks.ts). */
    fallbackModels: z.array(z.string().min(1, "choose a model")).max(3, "at most 3 fallback models").default([]),
    /**
     * Tool types of the tools registry, or entries (contract/tool-entry.ts), parsed here once. An
     * entry with `routeOnOutcome` gives the agent `tool:<name>:success` / `tool:<name>:error` handles (tool-outcomes.ts).
     */
    tools: z.array(toolEntrySchema).optional(),
    /** A JSON Schema; its fields are spread into the output. */
    responseFormat: z.unknown().optional(),
    /** Earlier messages, or one reference to an array of them. */
    memories: z.union([z.array(memorySchema), z.string()]).optional(),
    maxIterations: z.number().int().min(1).max(50).default(10),
    /** Per-step tools, tool choice and temperature of the tool loop (step-rules.ts); the first rule holding a step applies. */
    stepRules: z.array(stepRuleSchema).optional(),
    /** Replace old tool results with a short note once the conversation grows past a size. */
    pruneToolResults: pruneToolResultsSchema.optional(),
    /** Reasoning effort or thinking budget, only those the model accepts (providers/model-options.ts). */
    providerOptions: providerOptionsSchema.optional(),
  })
  .superRefine(checkLoopConfig); // a refinement, not a transform: the schema stays an object

export type AgentConfig = z.infer<typeof agentConfigSchema>;

export const agentDefinition = {
  type: "agent",
  label: "Agent",
  icon: "Bot",
  category: "ai",
  description: "Calls a model with a prompt, optional tools and memories, and streams its answer.",
  configSchema: agentConfigSchema,
  fields: [
    { key: "model", label: "Model", kind: "model", needs: "Choose a model" },
    { key: "systemPrompt", label: "System prompt", kind: "prompt" },
    { key: "userPrompt", label: "User prompt", kind: "prompt", needs: "Write the prompt the model answers" },
    { key: "temperature", label: "Temperature", kind: "number" },
    { key: "maxTokens", label: "Max tokens", kind: "number" },
    { key: "tools", label: "Tools", kind: "tools" },
    {
      key: "memories",
      label: "Memories",
      kind: "memories",
      help: "Earlier messages the model reads before the user prompt",
    },
    {
      key: "responseFormat",
      label: "Response format",
      kind: "responseFormat",
      help: "A JSON Schema the answer follows; its fields become the block's outputs. No properties: a text answer.",
    },
    { key: "maxIterations", label: "Max tool iterations", kind: "number" },
    {
      key: "stepRules",
      label: "Step rules",
      kind: "stepRules",
      help: "Per step of the tool loop: which tools, must it call one, temperature",
    },
    { key: "pruneToolResults", label: "Prune old tool results", kind: "pruneToolResults" },
    {
      key: "providerOptions",
      label: "Provider options",
      kind: "providerOptions",
      help: "Only the options the chosen model accepts",
    },
  ],
  outputs: [
    { path: "content", type: "string" },
    { path: "model", type: "string" },
    { path: "tokens", type: "object" },
    { path: "tokens.prompt", type: "number" },
    { path: "tokens.completion", type: "number" },
    { path: "tokens.total", type: "number" },
    {
      path: "tokens.reasoning",
      type: "number",
      description: "Reasoning tokens, part of completion (where the provider reports them)",
    },
    { path: "cost", type: "object" },
    { path: "cost.total", type: "number" },
    { path: "toolCalls", type: "object" },
    { path: "toolCalls.list", type: "array" },
    { path: "toolCalls.count", type: "number" },
    {
      path: "toolOutcomes",
      type: "object",
      description: "Per tool: success or error, the outcome of its last call (null when not called)",
    },
    { path: "providerTiming", type: "object" },
  ],
  acceptsInput: true,
  sourceHandles: (block) => [...STANDARD_HANDLES, ...toolOutcomeHandles(block)],
  takenHandles: takenToolHandles,
  // It sends its system prompt, its memories and the user prompt; with tools it calls the model up to `maxIterations` times.
  modelUse: {
    model: (config) => config.model,
    promptTexts(config) {
      // Memories given by a reference arrive as whatever it resolved to: only their texts are sent.
      const memories: unknown[] = Array.isArray(config.memories)
        ? config.memories.map((memory: unknown) => (memory as { content?: unknown })?.content)
        : [config.memories];
      const texts = memories.map((memory) => (typeof memory === "string" ? memory : ""));
      return [config.systemPrompt ?? "", ...texts, config.userPrompt].filter((text) => text !== "");
    },
    maxCalls: (config) => (config.tools && config.tools.length > 0 ? config.maxIterations : 1),
    maxOutputTokens: (config) => config.maxTokens,
  },
  testSamples: { toolCalls: true },
  storedReferences: (config) => storedReferencesOfTools(config.tools),
  docs: {
    config:
      "`model, systemPrompt?, userPrompt, temperature?, maxTokens?, tools?, responseFormat? (JSON Schema), memories?, maxIterations?, stepRules?, pruneToolResults?, providerOptions?, fallbackModels?` (the tool loop, below)",
    output:
      "`content, model, tokens, cost, toolCalls{list,count}, providerTiming` (with `responseFormat`: the schema's fields spread at top level, plus the metadata)",
  },
} satisfies BlockDefinition<typeof agentConfigSchema>;

import { z } from "zod";
import type { ModelList, ModelSummary } from "../models";
import type { EventLoopWindow, HealthDetails, Readiness, ReadinessCheck } from "../system";
import type { McpServerTools, ToolCatalog } from "../tools";
import type { SameWireType } from "./same-type";
import { modelPricesSchema, priceCatalogSchema, priceSourceSchema } from "./schemas-prices";

/** Answers of the endpoints about the server itself: health, models, tools, names for `{{` completion. */

export const healthSchema = z.object({ ok: z.literal(true) });

const readinessCheckSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().describe("How long the check took."),
  error: z.string().optional().describe("Why it failed, in words, without addresses or secrets."),
});

export const readinessSchema = z.object({
  ok: z.boolean(),
  checks: z.record(z.string(), readinessCheckSchema).describe("By name: `database`, and any check added later (a disk's free space)."),
});

const eventLoopWindowSchema = z.object({
  delayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }).describe("How late the event loop woke past its schedule."),
  utilization: z.number().describe("Share of the window the thread was busy (0 to 1)."),
  windowMs: z.number(),
});

export const healthDetailsSchema = z.object({
  ok: z.literal(true),
  uptimeS: z.number(),
  eventLoop: z.object({ current: eventLoopWindowSchema, previous: eventLoopWindowSchema.nullable() }),
  memory: z.object({ rssMb: z.number(), heapUsedMb: z.number(), externalMb: z.number(), collected: z.boolean() }),
  runs: z.object({ executing: z.number().int() }),
  sandboxes: z.object({
    running: z.number().int(),
    waiting: z.number().int(),
    reservedMb: z.number(),
    concurrency: z.number().int(),
    memoryMb: z.number(),
  }),
});

const modelSummarySchema = z.object({
  id: z.string().describe("Trellis model id, `provider/model`."),
  provider: z.string(),
  logo: z.string().describe("The provider's mark the model picker shows: a site path such as `/providers/openai.svg`."),
  label: z.string(),
  description: z.string().optional(),
  contextWindow: z.number().int().optional(),
  prices: modelPricesSchema.nullable().describe("US dollars per million tokens (the workspace's override where it has one); null when unknown."),
  unpriced: z.boolean(),
  priceSource: priceSourceSchema.optional().describe("Where `prices` came from; absent when unpriced."),
  offline: z.boolean().optional().describe("The built-in offline model: needs no key and is not a language model."),
  missingSetting: z
    .string()
    .optional()
    .describe(
      "The variable (API key or base URL) the model's provider still needs for this workspace, as a secret or in the server's environment; absent when ready. Never a value.",
    ),
  providerOptions: z
    .array(
      z.discriminatedUnion("name", [
        z.object({ name: z.literal("reasoningEffort"), label: z.string(), kind: z.literal("select"), values: z.array(z.string()) }),
        z.object({ name: z.literal("thinkingBudget"), label: z.string(), kind: z.literal("number"), min: z.number(), max: z.number() }),
      ]),
    )
    .describe("The provider options (reasoning effort, thinking budget) the model accepts; an agent may set only these."),
});

export const modelListSchema = z.object({
  models: z.array(modelSummarySchema),
  catalog: priceCatalogSchema.describe("The npm price catalog the list is priced from: its version and publication date."),
});

export const toolCatalogSchema = z.object({
  tools: z.array(
    z.object({
      type: z.string(),
      label: z.string(),
      description: z.string(),
      sideEffects: z.boolean().optional().describe("Its calls act on the world: a test run answers them from the agent's sample instead."),
      params: z
        .array(
          z.object({
            name: z.string(),
            label: z.string(),
            kind: z.enum(["text", "number", "select", "knowledgeBase", "keyValue"]),
            description: z.string().optional(),
            required: z.boolean().optional(),
            options: z.array(z.string()).optional(),
          }),
        )
        .optional()
        .describe("Settings of the tool entry (`params.<name>`) the inspector offers to pre-fill; the model no longer supplies a pre-filled one."),
    }),
  ),
  mcpServers: z.array(z.object({ name: z.string(), transport: z.enum(["http", "sse", "stdio"]), target: z.string() })),
  mcpError: z.string().optional().describe("Why the configured MCP server list could not be read."),
});

export const mcpServerToolsSchema = z.object({
  server: z.string(),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      inputSchema: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments as the server describes them (a JSON Schema)."),
    }),
  ),
});

export const envNamesSchema = z.object({
  names: z.array(z.string()).describe("Stored secret names and the set variables of TRELLIS_WORKFLOW_ENV; never values."),
});

/** The answer of GET /api/openapi.json, described loosely: its own schema is the OpenAPI 3.1 specification's. */
export const openApiDocumentSchema = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof eventLoopWindowSchema>, EventLoopWindow>,
  SameWireType<z.output<typeof healthDetailsSchema>, HealthDetails>,
  SameWireType<z.output<typeof readinessCheckSchema>, ReadinessCheck>,
  SameWireType<z.output<typeof readinessSchema>, Readiness>,
  SameWireType<z.output<typeof modelSummarySchema>, ModelSummary>,
  SameWireType<z.output<typeof modelListSchema>, ModelList>,
  SameWireType<z.output<typeof toolCatalogSchema>, ToolCatalog>,
  SameWireType<z.output<typeof mcpServerToolsSchema>, McpServerTools>,
] = [true, true, true, true, true, true, true, true];
void matches;

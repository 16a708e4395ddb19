import { z } from "zod";

/**
 * One entry of an agent's `tools` config (docs/CONTRACT.md, "Agent tools"), parsed once: the engine
 * parses it with the rest of the agent's config, the save-time checks and the inspector read it
 * through this schema too, so every form (`"calculator"`, `{ type }`, `{ id }`) means the same
 * everywhere. Client-safe.
 *
 * The entries are a union discriminated by `kind`: the kinds whose params name something stored
 * (an MCP server, a workflow, knowledge bases) have those params typed, since the save-time
 * reference check and the inspector read them; every other tool type is `builtin`, its params
 * read by its own provider. Tool types stay open: which types exist is the tool registry's.
 */

export const TOOL_ENTRY_MESSAGE = 'must be a tool type such as "calculator" or an object with a "type"';

const record = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The tool type an entry names in any of its forms, or null when it names none. */
export function toolEntryType(entry: unknown): string | null {
  if (typeof entry === "string") return entry.trim() || null;
  if (!record(entry)) return null;
  if (typeof entry.type === "string" && entry.type.trim()) return entry.type.trim();
  return typeof entry.id === "string" && entry.id.trim() ? entry.id.trim() : null;
}

/** The tool kinds whose params the schema types; any other type is `builtin`. */
const REFERENCING_TOOL_KINDS = ["mcp", "workflow", "knowledge_search"] as const;
type ReferencingKind = (typeof REFERENCING_TOOL_KINDS)[number];

function kindOf(type: string | null): ReferencingKind | "builtin" {
  return REFERENCING_TOOL_KINDS.find((kind) => kind === type) ?? "builtin";
}

/** Every form as one object: its type under `type` (an `id` is read as the type) and its kind. */
function asTaggedObject(entry: unknown): unknown {
  const type = toolEntryType(entry);
  if (typeof entry === "string") return type ? { type, kind: kindOf(type) } : entry;
  if (!record(entry)) return entry;
  const { id: _id, ...fields } = entry;
  return { ...fields, type: type ?? undefined, kind: kindOf(type) };
}

const textList = z.union([z.string(), z.array(z.string())]);

/** What every entry may say, whatever its kind. */
const commonFields = {
  /** The name the model sees; the provider's choice (usually the type) when absent. */
  name: z
    .string()
    .optional()
    .transform((name) => name || undefined),
  /** Each call waits until a person approves or denies it. */
  requireApproval: z.boolean().optional(),
  /** Workflow tools: a successful call ends the agent's loop, its result the agent's answer. */
  directOutput: z.boolean().optional(),
  /** `tool:<name>:success|error` handles on the agent: `true` for the entry's own tool names, or the names (blocks/agent/tool-outcomes.ts). */
  routeOnOutcome: z
    .union([z.boolean(), z.array(z.string())], { error: "must be true or a list of tool names" })
    .optional(),
};

const mcpToolEntrySchema = z.object({
  kind: z.literal("mcp"),
  type: z.literal("mcp"),
  ...commonFields,
  params: z.looseObject({
    server: z.string({ error: "choose an MCP server" }).min(1, "choose an MCP server"),
    /** Only these tools of the server; absent: every tool it lists when the agent runs. */
    tools: z.array(z.string()).optional(),
  }),
});

const workflowToolEntrySchema = z.object({
  kind: z.literal("workflow"),
  type: z.literal("workflow"),
  ...commonFields,
  params: z.looseObject({
    workflowId: z.string({ error: "choose a workflow" }).min(1, "choose a workflow"),
    description: z.string().optional(),
    /** Start inputs pre-filled for every call (references allowed). */
    inputs: z.record(z.string(), z.unknown(), { error: "must be an object of start input values" }).optional(),
  }),
});

const knowledgeSearchToolEntrySchema = z.object({
  kind: z.literal("knowledge_search"),
  type: z.literal("knowledge_search"),
  ...commonFields,
  params: z
    .looseObject({ knowledgeBaseId: textList.optional(), knowledgeBaseIds: textList.optional() })
    .refine((params) => params.knowledgeBaseId !== undefined || params.knowledgeBaseIds !== undefined, {
      message: "choose a knowledge base (params.knowledgeBaseId or params.knowledgeBaseIds)",
    }),
});

const builtinToolEntrySchema = z.object({
  kind: z.literal("builtin"),
  type: z.string({ error: TOOL_ENTRY_MESSAGE }).min(1, TOOL_ENTRY_MESSAGE),
  ...commonFields,
  /** Pre-filled parameters, read by the type's provider. */
  params: z.record(z.string(), z.unknown()).optional(),
});

const toolEntryKinds = z.discriminatedUnion(
  "kind",
  [mcpToolEntrySchema, workflowToolEntrySchema, knowledgeSearchToolEntrySchema, builtinToolEntrySchema],
  {
    error: TOOL_ENTRY_MESSAGE,
  },
);

/** One entry of an agent's `tools`, parsed: the registry and its providers read these. */
export type ToolEntry = z.output<typeof toolEntryKinds>;

/**
 * The names the model sees for the entry's tools, when they are known before it runs: its `name`,
 * an MCP entry's `params.tools`, else its type. Null for a whole MCP server and for a workflow tool
 * without a `name` (named after the workflow when the agent runs).
 */
export function toolNamesOfEntry(entry: ToolEntry): string[] | null {
  if (entry.name) return [entry.name];
  if (entry.kind === "mcp") return entry.params.tools ?? null;
  if (entry.kind === "workflow") return null;
  return [entry.type];
}

/** The tool names whose outcomes the entry routes on (`routeOnOutcome`); null when it says `true` but they are only known at run time. */
export function routedNamesOfEntry(entry: ToolEntry): string[] | null {
  if (Array.isArray(entry.routeOnOutcome)) return entry.routeOnOutcome;
  return entry.routeOnOutcome === true ? toolNamesOfEntry(entry) : [];
}

export const toolEntrySchema = z.preprocess(
  asTaggedObject,
  toolEntryKinds.superRefine((entry, context) => {
    if (routedNamesOfEntry(entry) !== null) return;
    context.addIssue({
      code: "custom",
      path: ["routeOnOutcome"],
      message:
        'this entry\'s tool names are only known when it runs: give it a "name" (or params.tools) or list them, as routeOnOutcome: ["tool_name"]',
    });
  }),
);

const toolEntryFormSchema = z.preprocess(asTaggedObject, toolEntryKinds);

/**
 * An entry as written, read as far as its form and params go (not its routing, which the config's
 * parse checks): null when it is not a valid entry. For code that reads a draft's entries.
 */
export function parseToolEntry(entry: unknown): ToolEntry | null {
  const parsed = toolEntryFormSchema.safeParse(entry);
  return parsed.success ? parsed.data : null;
}

/** Entries written by hand or by a test, parsed; throws on an invalid one. */
export function toolEntries(entries: readonly unknown[]): ToolEntry[] {
  return z.array(toolEntrySchema).parse(entries);
}

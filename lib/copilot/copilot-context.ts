import "server-only";
import { z } from "zod";
import { blockDefinitions, type BlockDefinition } from "@/blocks";
import type { WorkflowBlock, WorkflowDocument } from "@/contract";

/**
 * What the copilot's model is told, derived from what the project already holds: the block catalog
 * from the block definitions (type, description, config JSON Schema, handles, outputs), the
 * reference syntax, the draft, and the workspace's knowledge bases, workflows, MCP servers and
 * secrets by name. No secret value is ever read here: only names reach this function.
 */

export interface WorkspaceNames {
  knowledgeBases: Array<{ id: string; name: string }>;
  workflows: Array<{ id: string; name: string }>;
  mcpServers: string[];
  /** Names only: a value is never given to the copilot. */
  secretNames: string[];
}

/** The config schema as JSON Schema (the input a document may hold, defaults optional); null when zod cannot write it. */
function configJsonSchema(definition: BlockDefinition): unknown {
  try {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(definition.configSchema, {
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    return schema;
  } catch {
    return null;
  }
}

/** The handles of a fresh block of the type (a condition's or router's depend on its config: said so). */
function handlesOf(definition: BlockDefinition): string {
  const sample: WorkflowBlock = {
    id: "sample",
    type: definition.type,
    name: "Sample",
    position: { x: 0, y: 0 },
    parentId: null,
    enabled: true,
    config: {},
  };
  let handles: string[];
  try {
    handles = definition.sourceHandles(sample).map((handle) => handle.id);
  } catch {
    handles = [];
  }
  const routing =
    definition.routing === "branch"
      ? " (plus one handle per branch id of its config)"
      : definition.routing === "route"
        ? " (it picks which outgoing edges run)"
        : "";
  return `${handles.join(", ") || "none"}${routing}`;
}

/** One block type as the model reads it. */
export function describeBlockType(definition: BlockDefinition): string {
  const outputs = definition.outputs
    .map((output) => `${output.path}: ${output.type}${output.description ? ` (${output.description})` : ""}`)
    .join("; ");
  const schema = configJsonSchema(definition);
  return [
    `### ${definition.type}: ${definition.label}`,
    definition.description,
    `Config keys: ${definition.docs.config}`,
    `Config JSON Schema: ${schema === null ? "(see config keys)" : JSON.stringify(schema)}`,
    `Output handles: ${handlesOf(definition)}. Accepts incoming edges: ${definition.acceptsInput ? "yes" : "no"}.${definition.container ? ` A ${definition.container} container: blocks inside it have it as parent; its body handle leads into them.` : ""}${definition.terminal ? " Ends the run (no outgoing edges)." : ""}`,
    `Outputs: ${outputs || "none"}`,
  ].join("\n");
}

/** The whole block catalog, from every definition the palette offers. */
export function blockCatalog(definitions: Readonly<Record<string, BlockDefinition>> = blockDefinitions): string {
  return Object.values(definitions)
    .filter((definition) => !definition.hidden)
    .map(describeBlockType)
    .join("\n\n");
}

const REFERENCE_SYNTAX = `References inside config strings (docs/CONTRACT.md section 2):
- <Block Name.field.path> reads an output of a block that runs before (name matched ignoring case and spaces, or the block's id); at least one field must follow the name. <start.message> reads the run's input, <variable.name> a workflow variable, <loop.index>/<loop.item> and <parallel.item> inside containers.
- <A.content ?? B.content> reads the first alternative whose block ran (for merging after exclusive branches); it may end in a literal default (?? "none").
- {{NAME}} is a stored secret or allowed environment variable, filled in when the run starts. Use the secret names below; you never see their values.
- Condition branch expressions and edge conditions are expressions over references (output.status == 200).`;

const RULES = `How to work:
- Change the draft only through the tools, one edit per call. Each edit is checked as saving checks a workflow; a refused call comes back with the reason: fix it and call again.
- Give a block its whole config in add_block. Every workflow has exactly one start block; edges go from an output handle to a block that accepts input; no cycles.
- Names are unique; references use names, so name blocks for what they do.
- When you are done (or asked only a question), answer in a few sentences: what you changed, and anything you could not do. Never claim a change a tool refused.
- You know secret names only, never values: if asked for a secret's value, say you do not have it.`;

export function copilotSystemPrompt(options: {
  document: WorkflowDocument;
  names: WorkspaceNames;
  model: string;
  /** A failed run's errors and redacted trace, for "why did this fail?". */
  run?: unknown;
}): string {
  const { document, names, model } = options;
  const list = (items: string[]) => (items.length > 0 ? items.join(", ") : "none");
  return [
    "You are the copilot of Trellis, a workflow editor. You build and change the user's workflow (a graph of blocks) and answer questions about it.",
    RULES,
    `For blocks that call a model, use "${model}" unless the user names another.`,
    "## Block types",
    blockCatalog(),
    "## Reference syntax",
    REFERENCE_SYNTAX,
    "## The workspace (names only)",
    `Knowledge bases (id: name): ${list(names.knowledgeBases.map((base) => `${base.id}: ${base.name}`))}`,
    `Other workflows (id: name): ${list(names.workflows.map((workflow) => `${workflow.id}: ${workflow.name}`))}`,
    `MCP servers: ${list(names.mcpServers)}`,
    `Secrets (names): ${list(names.secretNames)}`,
    "## The current draft (JSON)",
    JSON.stringify(document),
    ...(options.run === undefined
      ? []
      : ["## The failed run (errors and trace, outputs redacted)", JSON.stringify(options.run)]),
  ].join("\n\n");
}

import "server-only";
import { getBlockDefinition, type StoredReference } from "@/blocks";
import type { IssueDetail, WorkflowDocument } from "@/contract";
import { TrellisError } from "@/executor";

/** Something stored that a block's config names by id: checked against the workspace on save. */
export interface ConfigReference {
  kind: StoredReference["kind"];
  id: string;
  path: string;
  blockName: string;
}

/** A value that is filled in when the run starts (`<block.field>`, `{{NAME}}`) names nothing yet. */
const isTemplate = (value: string) => value.includes("<") || value.includes("{{");

function strings(value: unknown): Array<[string, string]> {
  if (typeof value === "string") return [["", value]];
  if (Array.isArray(value))
    return value.flatMap((item, index) => (typeof item === "string" ? [[`[${index}]`, item] as [string, string]] : []));
  return [];
}

/**
 * Every id of a stored thing in a document's block configs, as each block type's definition names
 * them (`storedReferences`): a Knowledge block's bases, a Workflow block's workflow, an agent's
 * tools that name a knowledge base, a workflow or an MCP server.
 */
export function configReferences(document: WorkflowDocument): ConfigReference[] {
  const found: ConfigReference[] = [];
  document.blocks.forEach((block, index) => {
    const config = (block.config ?? {}) as Record<string, unknown>;
    for (const reference of getBlockDefinition(block.type)?.storedReferences?.(config) ?? []) {
      const path = `blocks[${index}].config.${reference.path}`;
      for (const [suffix, id] of strings(reference.value)) {
        if (id && !isTemplate(id))
          found.push({ kind: reference.kind, id, path: `${path}${suffix}`, blockName: block.name });
      }
    }
  });
  return found;
}

/** What the workspace has, by kind: the ids among `wanted` that exist in it. */
export interface WorkspaceHoldings {
  knowledgeBases(ids: string[]): Promise<Set<string>>;
  workflows(ids: string[]): Promise<Set<string>>;
  /** null when the operator's server list cannot be read: a run reports that, saving does not guess. */
  mcpServers(): Set<string> | null;
}

/**
 * Refuses a document whose configs name a knowledge base, workflow or MCP server the workspace
 * does not have: 404, naming the block and the id, whether the id is unknown or another
 * workspace's (so ids of other workspaces tell nothing). Nothing is stored.
 */
export async function checkConfigReferences(document: WorkflowDocument, holdings: WorkspaceHoldings): Promise<void> {
  const references = configReferences(document);
  if (references.length === 0) return;
  const ids = (kind: ConfigReference["kind"]) => [
    ...new Set(references.filter((reference) => reference.kind === kind).map((reference) => reference.id)),
  ];
  const [bases, workflows] = await Promise.all([
    holdings.knowledgeBases(ids("knowledge base")),
    holdings.workflows(ids("workflow")),
  ]);
  const servers = references.some((reference) => reference.kind === "MCP server")
    ? holdings.mcpServers()
    : new Set<string>();
  const held = { "knowledge base": bases, workflow: workflows, "MCP server": servers };
  const missing = references.filter((reference) => {
    const ids = held[reference.kind];
    return ids !== null && !ids.has(reference.id);
  });
  if (missing.length === 0) return;
  const details: IssueDetail[] = missing.map((reference) => ({
    path: reference.path,
    message: `${reference.kind} "${reference.id}" was not found`,
  }));
  const first = missing[0]!;
  const more = missing.length > 1 ? ` (and ${missing.length - 1} more)` : "";
  throw new TrellisError(
    "not_found",
    `Block "${first.blockName}" uses ${first.kind} "${first.id}", which was not found in this workspace${more}. Choose one of this workspace's.`,
    { details },
  );
}

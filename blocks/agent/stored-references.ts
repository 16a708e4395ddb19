import { parseToolEntry } from "@/contract";
import type { StoredReference } from "../types";

/**
 * What an agent's tools name that is stored in the workspace: a knowledge search's bases, a
 * workflow tool's workflow, an MCP entry's server. Read through the entry schema, so every form of
 * an entry (`{ type }` or `{ id }`) is seen; an entry that does not parse names nothing here (the
 * config's own check reports it).
 */
export function storedReferencesOfTools(tools: unknown): StoredReference[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((raw, index): StoredReference[] => {
    const entry = parseToolEntry(raw);
    const at = `tools[${index}].params`;
    switch (entry?.kind) {
      case "knowledge_search":
        return [
          { kind: "knowledge base", value: entry.params.knowledgeBaseId, path: `${at}.knowledgeBaseId` },
          { kind: "knowledge base", value: entry.params.knowledgeBaseIds, path: `${at}.knowledgeBaseIds` },
        ];
      case "workflow":
        return [{ kind: "workflow", value: entry.params.workflowId, path: `${at}.workflowId` }];
      case "mcp":
        return [{ kind: "MCP server", value: entry.params.server, path: `${at}.server` }];
      default:
        return [];
    }
  });
}

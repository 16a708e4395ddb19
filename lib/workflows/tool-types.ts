import "server-only";
import { getBlockDefinition } from "@/blocks";
import {
  TOOL_ENTRY_MESSAGE,
  toolEntryType,
  type IssueDetail,
  type WorkflowBlock,
  type WorkflowDocument,
} from "@/contract";
import { GraphValidationError } from "@/executor";

/** The problems of one block's tool entries (a field the inspector edits with the tool picker: the agent's `tools`). */
function entryIssues(block: WorkflowBlock, blockIndex: number, key: string, known: ReadonlySet<string>): IssueDetail[] {
  const entries = (block.config as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown, index): IssueDetail[] => {
    const path = `blocks[${blockIndex}].config.${key}[${index}]`;
    const type = toolEntryType(entry);
    if (type === null) return [{ path, message: `Block "${block.name}": ${key}[${index}] ${TOOL_ENTRY_MESSAGE}` }];
    if (known.has(type)) return [];
    const at = typeof entry === "string" ? path : `${path}.type`;
    return [
      {
        path: at,
        message: `Block "${block.name}": tool '${type}' does not exist (tools: ${[...known].sort().join(", ") || "none"})`,
      },
    ];
  });
}

/**
 * Refuses a document whose agents list a tool that does not exist (400 `invalid_workflow`),
 * naming the tool, the block and the entry's path, rather than saving what would fail when it
 * runs. `known` is the tool types of this server's registry (GET /api/tools).
 */
export function refuseUnknownTools(document: WorkflowDocument, known: ReadonlySet<string>): void {
  const issues = document.blocks.flatMap((block, blockIndex) =>
    (getBlockDefinition(block.type)?.fields ?? [])
      .filter((field) => field.kind === "tools")
      .flatMap((field) => entryIssues(block, blockIndex, field.key, known)),
  );
  if (issues.length > 0) throw new GraphValidationError(issues.map((issue) => issue.message).join("; "), issues);
}

import "server-only";
import type { IssueDetail, WorkflowDocument } from "@/contract";
import { GraphValidationError } from "@/executor";

/** The tool type an agent's `tools` entry names (`"calculator"`, `{ type }` or `{ id }`), or null when it names none. */
function typeOf(entry: unknown): string | null {
  if (typeof entry === "string") return entry.trim() || null;
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return null;
  const record = entry as { type?: unknown; id?: unknown };
  if (typeof record.type === "string" && record.type) return record.type;
  return typeof record.id === "string" && record.id ? record.id : null;
}

/**
 * Refuses a document whose agents list a tool that does not exist (400 `invalid_workflow`),
 * naming the tool, the block and the entry's path, rather than saving what would fail when it
 * runs. `known` is the tool types of this server's registry (GET /api/tools).
 */
export function refuseUnknownTools(document: WorkflowDocument, known: ReadonlySet<string>): void {
  const issues: IssueDetail[] = [];
  document.blocks.forEach((block, blockIndex) => {
    const tools = (block.config as { tools?: unknown } | undefined)?.tools;
    if (block.type !== "agent" || !Array.isArray(tools)) return;
    tools.forEach((entry, index) => {
      const path = `blocks[${blockIndex}].config.tools[${index}]`;
      const type = typeOf(entry);
      if (type === null) {
        issues.push({ path, message: `Block "${block.name}": tools[${index}] must be a tool type such as "calculator" or an object with a "type"` });
      } else if (!known.has(type)) {
        const at = typeof entry === "string" ? path : `${path}.type`;
        issues.push({ path: at, message: `Block "${block.name}": tool '${type}' does not exist (tools: ${[...known].sort().join(", ") || "none"})` });
      }
    });
  });
  if (issues.length > 0) throw new GraphValidationError(issues.map((issue) => issue.message).join("; "), issues);
}

import type { ApiSpan } from "@/contract";

/**
 * The run a span started (a Workflow block, or a workflow called as a tool): its output names it.
 * A failed Workflow block's span keeps it too; a failed workflow tool's error carries it
 * (`partialOutput`), but a tool span shows it only where the agent's tool spans keep that.
 */
export function childRunOf(span: Pick<ApiSpan, "kind" | "blockType" | "output">): { runId: string; workflowId: string } | null {
  if (span.kind === "model") return null;
  if (span.kind === "block" && span.blockType !== "workflow") return null;
  const output = span.output;
  if (typeof output !== "object" || output === null) return null;
  const { runId, workflowId } = output as { runId?: unknown; workflowId?: unknown };
  return typeof runId === "string" && runId && typeof workflowId === "string" && workflowId ? { runId, workflowId } : null;
}

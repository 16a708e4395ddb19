import type { ApiSpan } from "@/contract";

/**
 * The run a span started (a Workflow block, or a workflow called as a tool): its output names it.
 * A failed one keeps it too: a Workflow block's span and a workflow tool's span (from its error's
 * `partialOutput`).
 */
export function childRunOf(
  span: Pick<ApiSpan, "kind" | "blockType" | "output">,
): { runId: string; workflowId: string } | null {
  if (span.kind === "model") return null;
  if (span.kind === "block" && span.blockType !== "workflow") return null;
  const output = span.output;
  if (typeof output !== "object" || output === null) return null;
  const { runId, workflowId } = output as { runId?: unknown; workflowId?: unknown };
  return typeof runId === "string" && runId && typeof workflowId === "string" && workflowId
    ? { runId, workflowId }
    : null;
}

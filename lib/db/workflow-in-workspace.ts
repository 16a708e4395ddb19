import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { NotFoundError } from "./errors";

/** A client or a transaction's: anything that reads workflows. */
type WorkflowReader = Pick<PrismaClient, "workflow">;

/**
 * Refuses a workflow id that is not one of the workspace's, as `not_found` like an unknown one:
 * what every repository of a workflow's belongings (runs, deployments, hooks, schedules, chat)
 * checks before it reads or writes them.
 * @throws NotFoundError
 */
export async function assertWorkflowInWorkspace(
  db: WorkflowReader,
  workspaceId: string,
  workflowId: string,
): Promise<void> {
  const found = await db.workflow.findFirst({ where: { id: workflowId, workspaceId }, select: { id: true } });
  if (!found) throw new NotFoundError("Workflow", workflowId);
}

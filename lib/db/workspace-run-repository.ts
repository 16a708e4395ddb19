import "server-only";
import {
  isRunStatus,
  isRunTriggerKind,
  RUN_STATUSES,
  RUN_TRIGGER_KINDS,
  type RunStatus,
  type RunTriggerKind,
  type WorkspaceRunSummary,
} from "@/contract";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { InvalidInputError } from "./errors";
import { afterTimeAndId, keysetResult, timeAndIdOf, type KeysetResult, type TimeAndId } from "./keyset";
import { startedByFilter, toRunSummary, type RunStarter } from "./run-repository";
import { assertWorkflowInWorkspace } from "./workflow-in-workspace";

export interface WorkspaceRunListOptions {
  /** Only this workflow's runs (one of the workspace's). */
  workflowId?: string;
  status?: readonly RunStatus[];
  trigger?: readonly RunTriggerKind[];
  /** Only runs started by this member (with a session) or with this API key. */
  startedBy?: RunStarter;
  /** At most this many runs (default 50, at most 500). */
  limit?: number;
  /** The runs after this position: the `next` of the page before. */
  after?: TimeAndId;
}

/**
 * Every run of a workspace, across its workflows, for the Runs page (GET /api/runs). Ordered as a
 * workflow's own list is (when each was asked for, then id), so the two lists agree and a run
 * never moves while a client walks the pages.
 */
export class WorkspaceRunRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** @throws NotFoundError when `workflowId` is not one of the workspace's */
  async page(
    workspaceId: string,
    options: WorkspaceRunListOptions = {},
  ): Promise<KeysetResult<WorkspaceRunSummary, TimeAndId>> {
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new InvalidInputError("limit must be a whole number from 1 to 500", "limit");
    const unknownStatus = options.status?.find((status) => !isRunStatus(status));
    if (unknownStatus !== undefined)
      throw new InvalidInputError(`status must be one of ${RUN_STATUSES.join(", ")}; got "${unknownStatus}"`, "status");
    const unknownTrigger = options.trigger?.find((kind) => !isRunTriggerKind(kind));
    if (unknownTrigger !== undefined)
      throw new InvalidInputError(
        `trigger must be one of ${RUN_TRIGGER_KINDS.join(", ")}; got "${unknownTrigger}"`,
        "trigger",
      );
    if (options.workflowId !== undefined) await assertWorkflowInWorkspace(this.prisma, workspaceId, options.workflowId);
    const rows = await this.prisma.run.findMany({
      where: {
        workspaceId,
        ...(options.workflowId === undefined ? {} : { workflowId: options.workflowId }),
        ...(options.status?.length ? { status: { in: [...options.status] } } : {}),
        // A copilot request is stored as a run only so usage and budgets count it: listed when asked for by trigger.
        triggerKind: options.trigger?.length ? { in: [...options.trigger] } : { not: "copilot" },
        ...startedByFilter(options.startedBy),
        ...afterTimeAndId("queuedAt", "id", "desc", options.after),
      },
      include: { workflow: { select: { name: true } } },
      orderBy: [{ queuedAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    });
    return keysetResult(
      rows,
      limit,
      (row) => ({ ...toRunSummary(row), workflowName: row.workflow.name }),
      (row) => timeAndIdOf(row.queuedAt, row.id),
    );
  }
}

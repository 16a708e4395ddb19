import "server-only";
import type { DeploymentInfo, DeploymentWithDocument, WorkflowDocument } from "@/contract";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { NotFoundError } from "./errors";
import { toJsonValue } from "./json-value";
import { assertWorkflowInWorkspace } from "./workflow-in-workspace";
import {
  afterTimeAndId,
  keysetResult,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type TimeAndId,
} from "./keyset";

const withAuthor = { workflow: { select: { activeDeploymentId: true } } } as const;

interface DeploymentRow {
  id: string;
  workflowId: string;
  number: number;
  workflowVersion: number;
  note: string;
  document: unknown;
  createdAt: Date;
  createdById: string | null;
  evaluationId: string | null;
  gateOverride: unknown;
  workflow: { activeDeploymentId: string | null };
}

/** What the deploy gate found, kept on the deployment: the evaluation it judged by, and an admin's override. */
export interface DeploymentGateRecord {
  evaluationId: string | null;
  gateOverride: NonNullable<DeploymentInfo["gateOverride"]> | null;
}

/**
 * Deployments, always of one workspace. Deploying freezes the workflow's stored document as it is
 * at that moment and makes the copy active; the workflow row holds which one is active, so exactly
 * one is (or none before the first deploy) and activating another is one update.
 */
export class DeploymentRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Freezes `document` (the workflow's stored draft at `workflowVersion`) as the next number and
   * activates it. The workflow row is locked meanwhile, so two deploys at once get two numbers.
   * @throws NotFoundError
   */
  async create(
    workspaceId: string,
    workflowId: string,
    deployment: {
      document: WorkflowDocument;
      workflowVersion: number;
      note: string;
      createdById: string | null;
    } & Partial<DeploymentGateRecord>,
  ): Promise<DeploymentWithDocument> {
    const id = await this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM workflows WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
        workflowId,
        workspaceId,
      );
      if (locked.length === 0) throw new NotFoundError("Workflow", workflowId);
      const last = await tx.deployment.findFirst({
        where: { workflowId },
        orderBy: { number: "desc" },
        select: { number: true },
      });
      const row = await tx.deployment.create({
        data: {
          workspaceId,
          workflowId,
          number: (last?.number ?? 0) + 1,
          workflowVersion: deployment.workflowVersion,
          note: deployment.note,
          document: toJsonValue(deployment.document, "document"),
          createdById: deployment.createdById,
          evaluationId: deployment.evaluationId ?? null,
          gateOverride: deployment.gateOverride ? (deployment.gateOverride as Prisma.InputJsonObject) : Prisma.DbNull,
        },
        select: { id: true },
      });
      await tx.workflow.update({ where: { id: workflowId }, data: { activeDeploymentId: row.id } });
      return row.id;
    });
    return this.get(workspaceId, workflowId, id);
  }

  /** @throws NotFoundError when the deployment is not one of the workflow's (in the workspace) */
  async get(workspaceId: string, workflowId: string, id: string): Promise<DeploymentWithDocument> {
    const row = await this.prisma.deployment.findFirst({ where: { id, workflowId, workspaceId }, include: withAuthor });
    if (!row) throw new NotFoundError("Deployment", id);
    return (await this.withAuthors([row]))[0]!;
  }

  /** The active deployment, or null when the workflow was never deployed. @throws NotFoundError for an unknown workflow */
  async active(workspaceId: string, workflowId: string): Promise<DeploymentWithDocument | null> {
    const workflow = await this.prisma.workflow.findFirst({
      where: { id: workflowId, workspaceId },
      select: { activeDeploymentId: true },
    });
    if (!workflow) throw new NotFoundError("Workflow", workflowId);
    if (!workflow.activeDeploymentId) return null;
    return this.get(workspaceId, workflowId, workflow.activeDeploymentId);
  }

  /** A page of the workflow's deployments, newest first. @throws NotFoundError for an unknown workflow */
  async list(
    workspaceId: string,
    workflowId: string,
    page: KeysetPage<TimeAndId>,
  ): Promise<KeysetResult<DeploymentWithDocument, TimeAndId>> {
    await assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
    const rows = await this.prisma.deployment.findMany({
      where: { workflowId, workspaceId, ...afterTimeAndId("createdAt", "id", "desc", page.after) },
      include: withAuthor,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: page.limit + 1,
    });
    const items = await this.withAuthors(rows);
    return keysetResult(
      items,
      page.limit,
      (item) => item,
      (item) => timeAndIdOf(item.createdAt, item.id),
    );
  }

  /** Makes an earlier (or later) deployment the one that runs. @throws NotFoundError */
  async activate(workspaceId: string, workflowId: string, id: string): Promise<DeploymentWithDocument> {
    if ((await this.prisma.deployment.count({ where: { id, workflowId, workspaceId } })) === 0)
      throw new NotFoundError("Deployment", id);
    await this.prisma.workflow.update({ where: { id: workflowId }, data: { activeDeploymentId: id } });
    return this.get(workspaceId, workflowId, id);
  }

  private async withAuthors(rows: DeploymentRow[]): Promise<DeploymentWithDocument[]> {
    const authorIds = [...new Set(rows.flatMap((row) => (row.createdById ? [row.createdById] : [])))];
    const users = authorIds.length
      ? await this.prisma.user.findMany({ where: { id: { in: authorIds } }, select: { id: true, name: true } })
      : [];
    const names = new Map(users.map((user) => [user.id, user.name]));
    return rows.map((row) => {
      const name = row.createdById ? names.get(row.createdById) : undefined;
      return {
        id: row.id,
        workflowId: row.workflowId,
        number: row.number,
        workflowVersion: row.workflowVersion,
        note: row.note,
        createdAt: row.createdAt.toISOString(),
        createdBy: row.createdById && name !== undefined ? { id: row.createdById, name } : null,
        active: row.workflow.activeDeploymentId === row.id,
        evaluationId: row.evaluationId,
        gateOverride: (row.gateOverride ?? null) as DeploymentGateRecord["gateOverride"],
        document: row.document as WorkflowDocument,
      };
    });
  }
}

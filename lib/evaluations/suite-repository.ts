import "server-only";
import type { z } from "zod";
import { scorerSchema, suiteGateSchema, type suiteRequestSchema, type SuiteView } from "@/contract";
import { NotFoundError, type PrismaClient } from "@/lib/db";
import { Prisma, type EvaluationSuite as SuiteRow } from "@/lib/generated/prisma/client";

/** A suite as it is stored, once its request is checked (defaults applied). */
export type SuiteData = z.output<typeof suiteRequestSchema>;

function view(row: SuiteRow): SuiteView {
  return {
    id: row.id,
    workflowId: row.workflowId,
    name: row.name,
    datasetId: row.datasetId,
    scorers: scorerSchema.array().parse(row.scorers),
    passThreshold: row.passThreshold,
    gate: row.gate === null ? null : suiteGateSchema.parse(row.gate),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function columns(data: SuiteData) {
  return {
    name: data.name,
    datasetId: data.datasetId,
    scorers: data.scorers as unknown as Prisma.InputJsonArray,
    passThreshold: data.passThreshold,
    gate: data.gate === null ? Prisma.DbNull : (data.gate as Prisma.InputJsonObject),
  };
}

/** Suites of one workspace: another workspace's suite, workflow or dataset is not found. */
export class SuiteRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(workspaceId: string, workflowId: string, data: SuiteData): Promise<SuiteView> {
    return view(await this.prisma.evaluationSuite.create({ data: { workspaceId, workflowId, ...columns(data) } }));
  }

  async list(workspaceId: string, workflowId: string): Promise<SuiteView[]> {
    const rows = await this.prisma.evaluationSuite.findMany({
      where: { workspaceId, workflowId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    return rows.map(view);
  }

  /** @throws NotFoundError */
  async get(workspaceId: string, id: string): Promise<SuiteView> {
    const row = await this.prisma.evaluationSuite.findFirst({ where: { id, workspaceId } });
    if (!row) throw new NotFoundError("Suite", id);
    return view(row);
  }

  /** @throws NotFoundError */
  async replace(workspaceId: string, id: string, data: SuiteData): Promise<SuiteView> {
    const { count } = await this.prisma.evaluationSuite.updateMany({ where: { id, workspaceId }, data: columns(data) });
    if (count === 0) throw new NotFoundError("Suite", id);
    return this.get(workspaceId, id);
  }

  /** Deletes the suite and its evaluations. @throws NotFoundError */
  async remove(workspaceId: string, id: string): Promise<void> {
    const { count } = await this.prisma.evaluationSuite.deleteMany({ where: { id, workspaceId } });
    if (count === 0) throw new NotFoundError("Suite", id);
  }
}

import "server-only";
import {
  DATASET_MAX_CASES,
  type CheckedDatasetCase,
  type DatasetCase,
  type DatasetSummary,
  type DatasetView,
} from "@/contract";
import { NotFoundError, uuidV7, type PrismaClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { RequestError } from "@/lib/http/errors";
import { tooManyCases } from "./dataset-import";

type Transaction = Prisma.TransactionClient;

interface CaseRow {
  caseId: string;
  input: unknown;
  expected: unknown;
  note: string;
  tags: string[];
  sourceRunId: string | null;
}

/** The rows of a version: added at or before it, not removed by it. */
const atVersion = (version: number) => ({
  addedIn: { lte: version },
  OR: [{ removedIn: null }, { removedIn: { gt: version } }],
});

function caseView(row: CaseRow): DatasetCase {
  return {
    id: row.caseId,
    input: (row.input ?? {}) as Record<string, unknown>,
    expected: row.expected ?? null,
    note: row.note,
    tags: row.tags,
    sourceRunId: row.sourceRunId,
  };
}

/** A case to store, with the run it came from when it was added from one. */
export type NewCase = CheckedDatasetCase & { sourceRunId?: string };

/**
 * Datasets of one workspace, versioned: every change bumps `version` under the dataset's row lock
 * and writes case rows for that version; no case row is changed in place but to close it
 * (`removedIn`), so any version's cases can be read again.
 */
export class DatasetRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(
    workspaceId: string,
    data: { name: string; workflowId: string | null; cases: NewCase[] },
  ): Promise<DatasetSummary> {
    if (data.cases.length > DATASET_MAX_CASES) throw tooManyCases(data.cases.length);
    const id = await this.prisma.$transaction(async (tx) => {
      const dataset = await tx.dataset.create({
        data: { workspaceId, name: data.name, workflowId: data.workflowId, version: 1 },
      });
      await insertCases(tx, dataset.id, 1, 0, data.cases);
      return dataset.id;
    });
    return this.summary(workspaceId, id);
  }

  /** The workspace's datasets (of one workflow, when named), newest first. */
  async list(workspaceId: string, workflowId?: string): Promise<DatasetSummary[]> {
    const rows = await this.prisma.dataset.findMany({
      where: { workspaceId, ...(workflowId ? { workflowId } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 500,
    });
    const counts = await this.prisma.datasetCase.groupBy({
      by: ["datasetId"],
      where: { datasetId: { in: rows.map((row) => row.id) }, removedIn: null },
      _count: { _all: true },
    });
    const countOf = new Map(counts.map((count) => [count.datasetId, count._count._all]));
    return rows.map((row) => summaryOf(row, countOf.get(row.id) ?? 0));
  }

  /** @throws NotFoundError */
  async summary(workspaceId: string, id: string): Promise<DatasetSummary> {
    const row = await this.row(workspaceId, id);
    const count = await this.prisma.datasetCase.count({ where: { datasetId: id, removedIn: null } });
    return summaryOf(row, count);
  }

  /** The dataset with its cases as they are now, or as they were at `version`. @throws NotFoundError */
  async get(workspaceId: string, id: string, version?: number): Promise<DatasetView> {
    const row = await this.row(workspaceId, id);
    const at = version ?? row.version;
    if (at < 1 || at > row.version)
      throw new RequestError(
        "invalid_request",
        `Dataset "${row.name}" has versions 1 to ${row.version}; there is no version ${at}.`,
        [{ path: "version", message: `must be from 1 to ${row.version}` }],
      );
    const cases = await this.prisma.datasetCase.findMany({
      where: { datasetId: id, ...atVersion(at) },
      orderBy: [{ position: "asc" }],
    });
    return { ...summaryOf(row, cases.length), version: at, cases: cases.map(caseView) };
  }

  async rename(workspaceId: string, id: string, name: string): Promise<DatasetSummary> {
    await this.row(workspaceId, id);
    await this.prisma.dataset.update({ where: { id }, data: { name } });
    return this.summary(workspaceId, id);
  }

  /** @throws NotFoundError; RequestError 409 while a suite uses it */
  async remove(workspaceId: string, id: string): Promise<void> {
    const row = await this.row(workspaceId, id);
    const suites = await this.prisma.evaluationSuite.findMany({
      where: { datasetId: id, workspaceId },
      select: { name: true, gate: true },
    });
    if (suites.length > 0) {
      const gated = suites.filter((suite) => suite.gate !== null);
      const names = (gated.length > 0 ? gated : suites).map((suite) => `"${suite.name}"`).join(", ");
      throw new RequestError(
        "conflict",
        gated.length > 0
          ? `Dataset "${row.name}" is used by the deploy gate of suite ${names}: remove the gate or the suite first.`
          : `Dataset "${row.name}" is used by suite ${names}: delete the suite first.`,
      );
    }
    await this.prisma.dataset.delete({ where: { id } });
  }

  /** Adds cases as a new version. @throws NotFoundError; 413 past DATASET_MAX_CASES */
  async addCases(workspaceId: string, id: string, cases: NewCase[]): Promise<DatasetSummary> {
    await this.change(workspaceId, id, async (tx, version) => {
      const count = await tx.datasetCase.count({ where: { datasetId: id, removedIn: null } });
      if (count + cases.length > DATASET_MAX_CASES) throw tooManyCases(count + cases.length);
      const last = await tx.datasetCase.aggregate({ where: { datasetId: id }, _max: { position: true } });
      await insertCases(tx, id, version, (last._max.position ?? -1) + 1, cases);
    });
    return this.summary(workspaceId, id);
  }

  /** Replaces a case (same id and place) in a new version. @throws NotFoundError */
  async replaceCase(workspaceId: string, id: string, caseId: string, replacement: NewCase): Promise<DatasetSummary> {
    await this.change(workspaceId, id, async (tx, version) => {
      const current = await closeCase(tx, id, caseId, version);
      await tx.datasetCase.create({
        data: {
          ...caseData(replacement),
          datasetId: id,
          caseId,
          position: current.position,
          addedIn: version,
          sourceRunId: current.sourceRunId,
        },
      });
    });
    return this.summary(workspaceId, id);
  }

  /** Removes a case in a new version (older versions keep it). @throws NotFoundError */
  async removeCase(workspaceId: string, id: string, caseId: string): Promise<DatasetSummary> {
    await this.change(workspaceId, id, (tx, version) => closeCase(tx, id, caseId, version).then(() => undefined));
    return this.summary(workspaceId, id);
  }

  /** The dataset's workflow, to check columns against. @throws NotFoundError */
  async workflowOf(workspaceId: string, id: string): Promise<string | null> {
    return (await this.row(workspaceId, id)).workflowId;
  }

  /** Bumps the version under the dataset's row lock and makes the change at it, all or nothing. */
  private async change(
    workspaceId: string,
    id: string,
    work: (tx: Transaction, version: number) => Promise<void>,
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const bumped = await tx.dataset.updateMany({ where: { id, workspaceId }, data: { version: { increment: 1 } } });
      if (bumped.count === 0) throw new NotFoundError("Dataset", id);
      const { version } = await tx.dataset.findUniqueOrThrow({ where: { id }, select: { version: true } });
      await work(tx, version);
    });
  }

  private async row(workspaceId: string, id: string) {
    const row = await this.prisma.dataset.findFirst({ where: { id, workspaceId } });
    if (!row) throw new NotFoundError("Dataset", id);
    return row;
  }
}

function summaryOf(
  row: { id: string; name: string; workflowId: string | null; version: number; createdAt: Date; updatedAt: Date },
  caseCount: number,
): DatasetSummary {
  return {
    id: row.id,
    name: row.name,
    workflowId: row.workflowId,
    version: row.version,
    caseCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function caseData(item: NewCase) {
  return {
    input: item.input as Prisma.InputJsonObject,
    // No expected output (left out, or null) is SQL NULL.
    ...(item.expected === undefined || item.expected === null
      ? {}
      : { expected: item.expected as Prisma.InputJsonValue }),
    note: item.note,
    tags: item.tags,
  };
}

async function insertCases(
  tx: Transaction,
  datasetId: string,
  version: number,
  firstPosition: number,
  cases: NewCase[],
): Promise<void> {
  if (cases.length === 0) return;
  await tx.datasetCase.createMany({
    data: cases.map((item, index) => {
      const caseId = uuidV7();
      return {
        ...caseData(item),
        id: caseId,
        caseId,
        datasetId,
        position: firstPosition + index,
        addedIn: version,
        sourceRunId: item.sourceRunId ?? null,
      };
    }),
  });
}

async function closeCase(tx: Transaction, datasetId: string, caseId: string, version: number) {
  const current = await tx.datasetCase.findFirst({ where: { datasetId, caseId, removedIn: null } });
  if (!current) throw new NotFoundError("Case", caseId);
  await tx.datasetCase.update({ where: { id: current.id }, data: { removedIn: version } });
  return current;
}

/** The cases of a version, in order, for an evaluation. */
export async function casesAtVersion(prisma: PrismaClient, datasetId: string, version: number): Promise<DatasetCase[]> {
  const rows = await prisma.datasetCase.findMany({
    where: { datasetId, ...atVersion(version) },
    orderBy: [{ position: "asc" }],
  });
  return rows.map(caseView);
}

import "server-only";
import { PAGE_LIMIT_DEFAULT, type WorkflowDocument, type StoredWorkflow, type WorkflowSummary } from "@/contract";
import type { PrismaClient, Workflow } from "@/lib/generated/prisma/client";
import { NotFoundError, VersionConflictError } from "./errors";
import { isPrismaError, toJsonValue } from "./json-value";
import {
  afterTimeAndId,
  keysetResult,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type TimeAndId,
} from "./keyset";

/** What the `document` column holds; name and description are columns of their own. */
type DocumentBody = Pick<WorkflowDocument, "variables" | "blocks" | "edges" | "settings">;

/**
 * Workflows, always of one workspace: every method takes the workspace first, and a workflow of
 * another workspace is `not_found` like one that does not exist. Callers validate documents
 * first (lib/workflows); this stores and reads them. Updates use optimistic concurrency: the
 * caller passes the version it started from.
 */
export class WorkflowRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A page of the workspace's workflows, most recently updated first. A workflow saved while a
   * client walks the pages moves to the front, behind that walk: it shows it once at most (not at
   * all if it had not reached it yet), and a fresh first page shows it first.
   */
  async list(
    workspaceId: string,
    page: KeysetPage<TimeAndId> = { limit: PAGE_LIMIT_DEFAULT },
  ): Promise<KeysetResult<WorkflowSummary, TimeAndId>> {
    const rows = await this.prisma.workflow.findMany({
      where: { workspaceId, ...afterTimeAndId("updatedAt", "id", "desc", page.after) },
      select: { id: true, name: true, description: true, version: true, createdAt: true, updatedAt: true },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: page.limit + 1,
    });
    return keysetResult(
      rows,
      page.limit,
      (row) => ({ ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }),
      (row) => timeAndIdOf(row.updatedAt, row.id),
    );
  }

  /** The names of the workspace's workflows that begin with `prefix` (a name and its copies: `Support`, `Support (copy)`). */
  async namesStartingWith(workspaceId: string, prefix: string): Promise<Set<string>> {
    const rows = await this.prisma.workflow.findMany({
      where: { workspaceId, name: { startsWith: prefix } },
      select: { name: true },
    });
    return new Set(rows.map((row) => row.name));
  }

  async create(workspaceId: string, document: WorkflowDocument): Promise<StoredWorkflow> {
    const row = await this.prisma.workflow.create({
      data: { workspaceId, name: document.name, description: document.description, document: body(document) },
    });
    return toStoredWorkflow(row);
  }

  /** @throws NotFoundError */
  async get(workspaceId: string, id: string): Promise<StoredWorkflow> {
    const row = await this.prisma.workflow.findFirst({ where: { id, workspaceId } });
    if (!row) throw new NotFoundError("Workflow", id);
    return toStoredWorkflow(row);
  }

  /**
   * Replaces the document if the stored version is still `expectedVersion`, and bumps the version.
   * The check and the write are one UPDATE ... WHERE id AND version, so of two concurrent updates
   * from the same version exactly one succeeds.
   * @throws NotFoundError, VersionConflictError (and nothing is stored)
   */
  async update(
    workspaceId: string,
    id: string,
    document: WorkflowDocument,
    expectedVersion: number,
  ): Promise<StoredWorkflow> {
    try {
      const row = await this.prisma.workflow.update({
        where: { id, workspaceId, version: expectedVersion },
        data: {
          name: document.name,
          description: document.description,
          document: body(document),
          version: { increment: 1 },
        },
      });
      return toStoredWorkflow(row);
    } catch (error) {
      if (!isPrismaError(error, "P2025")) throw error;
      const current = await this.prisma.workflow.findFirst({ where: { id, workspaceId }, select: { version: true } });
      if (!current) throw new NotFoundError("Workflow", id);
      throw new VersionConflictError(id, expectedVersion, current.version);
    }
  }

  /** Deletes the workflow and, by cascade, its runs, spans and events. @throws NotFoundError */
  async delete(workspaceId: string, id: string): Promise<void> {
    const { count } = await this.prisma.workflow.deleteMany({ where: { id, workspaceId } });
    if (count === 0) throw new NotFoundError("Workflow", id);
  }
}

function body(document: WorkflowDocument) {
  const stored: DocumentBody = {
    variables: document.variables,
    blocks: document.blocks,
    edges: document.edges,
    ...(document.settings ? { settings: document.settings } : {}),
  };
  return toJsonValue(stored, "document");
}

function toStoredWorkflow(row: Workflow): StoredWorkflow {
  const stored = row.document as unknown as DocumentBody;
  return {
    id: row.id,
    version: row.version,
    name: row.name,
    description: row.description,
    variables: stored.variables ?? {},
    blocks: stored.blocks ?? [],
    edges: stored.edges ?? [],
    ...(stored.settings ? { settings: stored.settings } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

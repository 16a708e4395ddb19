import "server-only";
import type { WorkflowDocument, StoredWorkflow, WorkflowSummary } from "@/contract";
import type { PrismaClient, Workflow } from "@/lib/generated/prisma/client";
import { NotFoundError, VersionConflictError } from "./errors";
import { isPrismaError, toJsonValue } from "./json-value";

/** What the `document` column holds; name and description are columns of their own. */
type DocumentBody = Pick<WorkflowDocument, "variables" | "blocks" | "edges">;

/**
 * Workflows. Callers validate documents first (lib/workflows); this stores and reads them.
 * Updates use optimistic concurrency: the caller passes the version it started from.
 */
export class WorkflowRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Most recently updated first. */
  async list(): Promise<WorkflowSummary[]> {
    const rows = await this.prisma.workflow.findMany({
      select: { id: true, name: true, description: true, version: true, createdAt: true, updatedAt: true },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    });
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }));
  }

  async create(document: WorkflowDocument): Promise<StoredWorkflow> {
    const row = await this.prisma.workflow.create({
      data: { name: document.name, description: document.description, document: body(document) },
    });
    return toStoredWorkflow(row);
  }

  /** @throws NotFoundError */
  async get(id: string): Promise<StoredWorkflow> {
    const row = await this.prisma.workflow.findUnique({ where: { id } });
    if (!row) throw new NotFoundError("Workflow", id);
    return toStoredWorkflow(row);
  }

  /**
   * Replaces the document if the stored version is still `expectedVersion`, and bumps the version.
   * The check and the write are one UPDATE ... WHERE id AND version, so of two concurrent updates
   * from the same version exactly one succeeds.
   * @throws NotFoundError, VersionConflictError (and nothing is stored)
   */
  async update(id: string, document: WorkflowDocument, expectedVersion: number): Promise<StoredWorkflow> {
    try {
      const row = await this.prisma.workflow.update({
        where: { id, version: expectedVersion },
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
      const current = await this.prisma.workflow.findUnique({ where: { id }, select: { version: true } });
      if (!current) throw new NotFoundError("Workflow", id);
      throw new VersionConflictError(id, expectedVersion, current.version);
    }
  }

  /** Deletes the workflow and, by cascade, its runs, spans and events. @throws NotFoundError */
  async delete(id: string): Promise<void> {
    const { count } = await this.prisma.workflow.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError("Workflow", id);
  }
}

function body(document: WorkflowDocument) {
  const stored: DocumentBody = { variables: document.variables, blocks: document.blocks, edges: document.edges };
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

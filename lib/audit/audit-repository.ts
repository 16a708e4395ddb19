import "server-only";
import type { AuditEntry, AuditFilter } from "@/contract";
import {
  afterTimeAndId,
  keysetResult,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type PrismaClient,
  type TimeAndId,
} from "@/lib/db";
import type { AuditEntry as AuditRow } from "@/lib/generated/prisma/client";

/** Reads a workspace's audit log; there is nothing here that edits or deletes an entry. */

function whereOf(workspaceId: string, filter: AuditFilter) {
  return {
    workspaceId,
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.objectType ? { objectType: filter.objectType } : {}),
    ...(filter.objectId ? { objectId: filter.objectId } : {}),
    ...(filter.from || filter.to
      ? { at: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } }
      : {}),
  };
}

/** A user's id finds what they did signed in and with their keys; a key's id what that key did. */
function actorWhere(filter: AuditFilter) {
  return filter.actor ? [{ OR: [{ actorId: filter.actor }, { actorUserId: filter.actor }] }] : [];
}

export function auditEntryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actorKind === "apiKey" ? "apiKey" : "user", id: row.actorId, name: row.actorName },
    action: row.action as AuditEntry["action"],
    object: { type: row.objectType, id: row.objectId, name: row.objectName },
    address: row.address,
    summary: (row.summary ?? {}) as AuditEntry["summary"],
  };
}

export function createAuditRepository(prisma: PrismaClient) {
  return {
    /** A page of the entries the filter selects, newest first. */
    async page(
      workspaceId: string,
      filter: AuditFilter,
      page: KeysetPage<TimeAndId>,
    ): Promise<KeysetResult<AuditEntry, TimeAndId>> {
      const rows = await prisma.auditEntry.findMany({
        where: {
          ...whereOf(workspaceId, filter),
          AND: [...actorWhere(filter), afterTimeAndId("at", "id", "desc", page.after)],
        },
        orderBy: [{ at: "desc" }, { id: "desc" }],
        take: page.limit + 1,
      });
      return keysetResult(rows, page.limit, auditEntryOf, (row) => timeAndIdOf(row.at, row.id));
    },

    /** The entries the filter selects, oldest first, read `batch` at a time (an export streams them). */
    async *inOrder(workspaceId: string, filter: AuditFilter, max: number, batch = 500): AsyncGenerator<AuditEntry> {
      let after: TimeAndId | undefined;
      let given = 0;
      while (given < max) {
        const take = Math.min(batch, max - given);
        const rows = await prisma.auditEntry.findMany({
          where: {
            ...whereOf(workspaceId, filter),
            AND: [...actorWhere(filter), afterTimeAndId("at", "id", "asc", after)],
          },
          orderBy: [{ at: "asc" }, { id: "asc" }],
          take,
        });
        for (const row of rows) yield auditEntryOf(row);
        given += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < take) return;
        after = timeAndIdOf(last.at, last.id);
      }
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;

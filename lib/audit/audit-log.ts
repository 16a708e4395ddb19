import "server-only";
import type { AuditAction, AuditSummary } from "@/contract";
import type { PrismaClient } from "@/lib/db";

/**
 * Writes the audit log (docs/CONTRACT.md section 17): one entry per change, recorded by the code
 * that made it. Entries are only ever added: the table's trigger refuses edits and deletes but the
 * retention sweep's (prisma/migrations/*_audit_log).
 */

/** Who acted and from where: a signed-in user, or an API key acting as the user who made it. */
export interface AuditBy {
  actor:
    { kind: "user"; userId: string; name: string } | { kind: "apiKey"; apiKeyId: string; userId: string; name: string };
  /** The client's address as the server saw it; null when it is not known. */
  address: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  object: { type: string; id: string; name?: string | null };
  /** Plain facts about the change (`before`, `after`, a sign-in's `method`): never a secret value. */
  summary?: AuditSummary;
}

/** What writing an entry needs: the app's client or a transaction's, so an entry can commit with its change. */
export type AuditWriter = Pick<PrismaClient, "auditEntry" | "apiKey">;

/** Keys a summary must not have at any depth: whatever they would hold is a secret, so the code recording it is wrong. */
const SECRET_KEYS = /^(value|password|secret|clientsecret|token|key|apikey|hash)$/i;

function secretKeyIn(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = secretKeyIn(item);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (SECRET_KEYS.test(key)) return key;
      const found = secretKeyIn(inner);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Adds one entry to the workspace's log. An API key's entry is named after the key and its maker
 * (`CI deploy · Ada`), as they were when it acted.
 * @throws Error when the summary has a key that would hold a secret (`value`, `password`, `token`...): a defect of the caller, never stored
 */
export async function recordAudit(
  db: AuditWriter,
  workspaceId: string,
  by: AuditBy,
  record: AuditRecord,
): Promise<void> {
  const summary = record.summary ?? {};
  const secretKey = secretKeyIn(summary);
  if (secretKey)
    throw new Error(`An audit summary of ${record.action} has a "${secretKey}" field: it must never hold a secret.`);
  let actorId: string;
  let actorName = by.actor.name;
  if (by.actor.kind === "apiKey") {
    actorId = by.actor.apiKeyId;
    const key = await db.apiKey.findUnique({ where: { id: actorId }, select: { name: true } });
    if (key) actorName = `${key.name} · ${by.actor.name}`;
  } else actorId = by.actor.userId;
  await db.auditEntry.create({
    data: {
      workspaceId,
      actorKind: by.actor.kind,
      actorId,
      actorName,
      actorUserId: by.actor.userId,
      action: record.action,
      objectType: record.object.type,
      objectId: record.object.id,
      objectName: record.object.name ?? null,
      address: by.address,
      summary: summary as object,
    },
  });
}

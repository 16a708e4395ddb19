import "server-only";
import { createHash, randomBytes } from "node:crypto";
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARACTERS,
  type ApiKeySummary,
  type CreatedApiKey,
  type SessionUser,
  type WorkspaceRole,
  isWorkspaceRole,
} from "@/contract";
import {
  afterTimeAndId,
  keysetResult,
  NotFoundError,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type PrismaClient,
  type TimeAndId,
} from "@/lib/db";
import { processReadCache, type WorkspaceReadCache } from "@/lib/cache";
import { RequestError } from "@/lib/http/errors";
import { revokeMintedKeys } from "./minted-keys";

/**
 * API keys: `trl_` and 32 random bytes (base64url). Only the key's SHA-256 is stored, so a key is
 * found by its hash (a unique index: no comparison of secrets in the application) and cannot be
 * shown again. A key acts as the user who made it until it is revoked or expires. Keys are never
 * logged.
 */

/** The one answer for a key that does not authenticate, whatever the reason. */
export const INVALID_API_KEY_MESSAGE = "The API key is not valid: it is unknown, revoked or expired.";

/** `trl_` then 43 base64url characters (32 bytes, unpadded). */
const KEY_PATTERN = /^trl_[A-Za-z0-9_-]{43}$/;

/** lastUsedAt is written at most this often per key, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function summaryOf(row: {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Whose keys a call touches: one user's, in one workspace. */
export interface KeyOwner {
  userId: string;
  workspaceId: string;
}

/**
 * Makes a key for the user in the workspace; the answer is the only place the key itself appears.
 * A key made by a request that carried a key (`mintedBy`) is recorded as that key's: revoking the
 * minting key revokes it too, and it cannot expire later than the minting key (without an expiry
 * of its own it takes the minting key's). The minting key is locked while the new one is stored,
 * so a revocation running at the same time either sees the new key or makes the minting fail.
 * @throws invalid_request for an expiry past the minting key's; unauthenticated when the minting key was revoked meanwhile
 */
export async function createApiKey(
  prisma: PrismaClient,
  owner: KeyOwner,
  request: { name: string; expiresAt?: Date | null; mintedBy?: string | null },
): Promise<CreatedApiKey> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await prisma.$transaction(async (tx) => {
    let expiresAt = request.expiresAt ?? null;
    if (request.mintedBy) {
      const [minting] = await tx.$queryRaw<{ revokedAt: Date | null; expiresAt: Date | null }[]>`
        SELECT revoked_at AS "revokedAt", expires_at AS "expiresAt" FROM api_keys WHERE id = ${request.mintedBy} FOR UPDATE`;
      if (!minting || minting.revokedAt) throw new RequestError("unauthenticated", INVALID_API_KEY_MESSAGE);
      if (minting.expiresAt && expiresAt && expiresAt > minting.expiresAt) {
        const limit = minting.expiresAt.toISOString();
        throw new RequestError(
          "invalid_request",
          `The API key is invalid: expiresAt must not be later than the key that makes it (${limit}).`,
          [{ path: "expiresAt", message: `must not be later than ${limit}, when the key making it expires` }],
        );
      }
      expiresAt ??= minting.expiresAt;
    }
    return tx.apiKey.create({
      data: {
        userId: owner.userId,
        workspaceId: owner.workspaceId,
        name: request.name,
        prefix: key.slice(0, API_KEY_SHOWN_CHARACTERS),
        hash: hashApiKey(key),
        expiresAt,
        mintedByKeyId: request.mintedBy ?? null,
      },
    });
  });
  const summary = summaryOf(row);
  return {
    id: summary.id,
    name: summary.name,
    prefix: summary.prefix,
    key,
    createdAt: summary.createdAt,
    expiresAt: summary.expiresAt,
  };
}

/** A page of the user's keys in the workspace that are not revoked, newest first: never the key or its hash. */
export async function listApiKeys(
  prisma: PrismaClient,
  owner: KeyOwner,
  page: KeysetPage<TimeAndId>,
): Promise<KeysetResult<ApiKeySummary, TimeAndId>> {
  const rows = await prisma.apiKey.findMany({
    where: {
      userId: owner.userId,
      workspaceId: owner.workspaceId,
      revokedAt: null,
      ...afterTimeAndId("createdAt", "id", "desc", page.after),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true },
    take: page.limit + 1,
  });
  return keysetResult(rows, page.limit, summaryOf, (row) => timeAndIdOf(row.createdAt, row.id));
}

/**
 * Revokes one of the user's keys at once (the next request with it gets 401), and every key it
 * minted, and theirs; answers the revoked key's name and prefix. An unknown id, another user's key
 * and a key already revoked are all `not_found`.
 */
export async function revokeApiKey(
  prisma: PrismaClient,
  owner: KeyOwner,
  id: string,
  now: Date = new Date(),
): Promise<{ name: string; prefix: string }> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({
      where: { id, userId: owner.userId, workspaceId: owner.workspaceId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (count === 0) throw new NotFoundError("API key", id);
    await revokeMintedKeys(tx, id, now);
    return tx.apiKey.findUniqueOrThrow({ where: { id }, select: { name: true, prefix: true } });
  });
}

interface KeyRow {
  id: string;
  workspaceId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  userId: string;
  email: string;
  name: string;
  role: string | null;
  generation: bigint;
}

/**
 * The user a key authenticates, with their role in the key's workspace now (null when they left
 * it), or null when the key is malformed, unknown, revoked or expired (the caller answers all of
 * these alike). One query, as every request with a key asks it. Marks the key used, at most once a minute.
 *
 * The key and the role are never cached: this query is the one read every such request makes, so
 * it also brings the workspace's cache generation, and the request's other reads (deployment,
 * secrets, prices, caps) skip whatever the cache holds from before a committed change, on every
 * process, without waiting for the change's notification (lib/cache/README.md).
 */
export async function callerOfApiKey(
  prisma: PrismaClient,
  key: string,
  now: Date = new Date(),
  readCache: WorkspaceReadCache = processReadCache(),
): Promise<(SessionUser & { apiKeyId: string; workspaceId: string; role: WorkspaceRole | null }) | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const [row] = await prisma.$queryRaw<KeyRow[]>`
    SELECT k.id, k.workspace_id AS "workspaceId", k.revoked_at AS "revokedAt", k.expires_at AS "expiresAt", k.last_used_at AS "lastUsedAt",
      u.id AS "userId", u.email, u.name, m.role, COALESCE(g.generation, 0) AS generation
    FROM api_keys k JOIN users u ON u.id = k.user_id
      LEFT JOIN workspace_members m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
      LEFT JOIN cache_generations g ON g.workspace_id = k.workspace_id
    WHERE k.hash = ${hashApiKey(key)}`;
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return null;
  readCache.observe(row.workspaceId, Number(row.generation));
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    // Conditional, so concurrent requests write once.
    await prisma.apiKey.updateMany({
      where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] },
      data: { lastUsedAt: now },
    });
  }
  const role = row.role !== null && isWorkspaceRole(row.role) ? row.role : null;
  return { userId: row.userId, email: row.email, name: row.name, apiKeyId: row.id, workspaceId: row.workspaceId, role };
}

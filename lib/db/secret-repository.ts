import "server-only";
import { SECRET_NAME_RULE } from "@/contract";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { InvalidInputError, NotFoundError } from "./errors";
import { keysetResult, type KeysetPage, type KeysetResult } from "./keyset";
import { decryptSecret, encryptSecret, type SealedSecret } from "./secret-cipher";
import type { SecretSummary } from "./types";

/** Secret names are what `{{NAME}}` references: capitals, digits and _ (contract/secrets.ts states the rule). */
export const SECRET_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/;
const MAX_SECRET_BYTES = 64 * 1024;

/** A secret as stored: still encrypted, so a copy kept in memory holds no value in clear. */
export interface StoredSecret {
  summary: SecretSummary;
  sealed: SealedSecret;
}

/** Where a page of secrets ends: the last name shown. */
export type SecretPosition = readonly [name: string];

/**
 * Stored secrets of one workspace each (every method takes the workspace first), encrypted at
 * rest with AES-256-GCM. Only `get` and `getMany` return values; listing returns names and dates.
 */
export class SecretRepository {
  private key: Buffer | undefined;

  /** `key` may be a function so the key is only loaded (or created) when a secret is touched. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly keySource: Buffer | (() => Buffer),
  ) {}

  async set(workspaceId: string, name: string, value: string): Promise<SecretSummary> {
    checkName(name);
    if (typeof value !== "string") throw new InvalidInputError("A secret's value must be a string", "value");
    if (Buffer.byteLength(value, "utf8") > MAX_SECRET_BYTES) {
      throw new InvalidInputError(`A secret's value must be at most ${MAX_SECRET_BYTES} bytes`, "value");
    }
    const sealed = encryptSecret(this.secretKey(), name, value);
    const row = await this.prisma.secret.upsert({
      where: { workspaceId_name: { workspaceId, name } },
      create: { workspaceId, name, ...sealed },
      update: sealed,
      select: { name: true, createdAt: true, updatedAt: true },
    });
    return toSummary(row);
  }

  /** The decrypted value, or null when no secret has that name. */
  async get(workspaceId: string, name: string): Promise<string | null> {
    const row = await this.prisma.secret.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
    return row ? decryptSecret(this.secretKey(), row.name, row) : null;
  }

  /** Decrypted values of the named secrets that exist. */
  async getMany(workspaceId: string, names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const rows = await this.prisma.secret.findMany({ where: { workspaceId, name: { in: [...names] } } });
    return new Map(rows.map((row) => [row.name, decryptSecret(this.secretKey(), row.name, row)]));
  }

  /** Every secret of the workspace as stored (encrypted), by name; `open` decrypts one. */
  async sealedAll(workspaceId: string): Promise<StoredSecret[]> {
    const rows = await this.prisma.secret.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
    return rows.map((row) => ({
      summary: toSummary(row),
      sealed: { ciphertext: row.ciphertext, iv: row.iv, authTag: row.authTag },
    }));
  }

  /** The value of a secret read with `sealedAll`. @throws SecretUnreadableError */
  open(secret: StoredSecret): string {
    return decryptSecret(this.secretKey(), secret.summary.name, secret.sealed);
  }

  /** Names and dates only, by name. */
  async list(workspaceId: string): Promise<SecretSummary[]> {
    const rows = await this.prisma.secret.findMany({
      where: { workspaceId },
      select: { name: true, createdAt: true, updatedAt: true },
      orderBy: { name: "asc" },
    });
    return rows.map(toSummary);
  }

  /** A page of the names and dates, by name: a name is unique in its workspace, so it is the whole position. */
  async page(
    workspaceId: string,
    page: KeysetPage<SecretPosition>,
  ): Promise<KeysetResult<SecretSummary, SecretPosition>> {
    const rows = await this.prisma.secret.findMany({
      where: { workspaceId, ...(page.after ? { name: { gt: page.after[0] } } : {}) },
      select: { name: true, createdAt: true, updatedAt: true },
      orderBy: { name: "asc" },
      take: page.limit + 1,
    });
    return keysetResult(rows, page.limit, toSummary, (row): SecretPosition => [row.name]);
  }

  /** @throws NotFoundError */
  async delete(workspaceId: string, name: string): Promise<void> {
    const { count } = await this.prisma.secret.deleteMany({ where: { workspaceId, name } });
    if (count === 0) throw new NotFoundError("Secret", name);
  }

  private secretKey(): Buffer {
    this.key ??= typeof this.keySource === "function" ? this.keySource() : this.keySource;
    return this.key;
  }
}

function checkName(name: string): void {
  if (!SECRET_NAME_PATTERN.test(name)) {
    throw new InvalidInputError(`A secret's name ${SECRET_NAME_RULE}`, "name");
  }
}

function toSummary(row: { name: string; createdAt: Date; updatedAt: Date }): SecretSummary {
  return { name: row.name, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

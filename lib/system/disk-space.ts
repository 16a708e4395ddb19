import { statfsSync } from "node:fs";
import { statfs } from "node:fs/promises";
import path from "node:path";

/**
 * Free space on the disks the server writes to (DATA_DIR's embedded database, the upload folder).
 * No project imports: the embedded database's thread loads this file too.
 */

/** What the disk holding `folder` has free for this process (blocks available to unprivileged users). */
export interface DiskSpace {
  folder: string;
  freeBytes: number;
  totalBytes: number;
}

/** What a readiness check reports: whether the disk still has the reserve every write keeps free. */
export interface DiskSpaceCheck extends DiskSpace {
  reserveBytes: number;
  ok: boolean;
}

const DEFAULT_RESERVE_MB = 64;

/**
 * Space kept free under every large write: PostgreSQL needs room for its WAL and checkpoints, and
 * PGlite stops answering when one of those fails for lack of space (lib/db/README.md). Set with
 * TRELLIS_DISK_RESERVE_MB; a value that is not a non-negative number is an error naming it.
 */
export function diskReserveBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env.TRELLIS_DISK_RESERVE_MB;
  if (raw === undefined || raw.trim() === "") return DEFAULT_RESERVE_MB * 1024 * 1024;
  const megabytes = Number(raw);
  if (!Number.isFinite(megabytes) || megabytes < 0)
    throw new Error(`TRELLIS_DISK_RESERVE_MB must be a number of megabytes (0 or more), not "${raw}"`);
  return Math.round(megabytes * 1024 * 1024);
}

/** The folder itself or, before it is created, its nearest existing parent: that is the disk it will be on. */
function existingFolder(folder: string, exists: (candidate: string) => boolean): string {
  let candidate = path.resolve(folder);
  while (!exists(candidate)) {
    const parent = path.dirname(candidate);
    if (parent === candidate) break;
    candidate = parent;
  }
  return candidate;
}

function spaceOf(
  folder: string,
  stats: { bavail: number | bigint; bsize: number | bigint; blocks: number | bigint },
): DiskSpace {
  const blockSize = Number(stats.bsize);
  return { folder, freeBytes: Number(stats.bavail) * blockSize, totalBytes: Number(stats.blocks) * blockSize };
}

function existsSync(candidate: string): boolean {
  try {
    statfsSync(candidate);
    return true;
  } catch {
    return false;
  }
}

export async function diskSpaceOf(folder: string): Promise<DiskSpace> {
  return spaceOf(folder, await statfs(existingFolder(folder, existsSync)));
}

/** The same, synchronously: for the embedded database's thread, which checks before handing a message to PGlite. */
export function diskSpaceOfSync(folder: string): DiskSpace {
  return spaceOf(folder, statfsSync(existingFolder(folder, existsSync)));
}

/**
 * For readiness (`/api/health/ready`): not ok while the disk holding `folder` has less than the
 * reserve free, the point under which large writes are refused with 507.
 */
export async function checkDiskSpace(folder: string, reserveBytes = diskReserveBytes()): Promise<DiskSpaceCheck> {
  const space = await diskSpaceOf(folder);
  return { ...space, reserveBytes, ok: space.freeBytes >= reserveBytes };
}

/** 1.5 MB, 64 MB, 2.1 GB: sizes as a message to a person shows them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(0, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.round((bytes / 1024 / 1024 / 1024) * 10) / 10} GB`;
}

export interface Shortfall {
  /** What was refused, as a person reads it: "this upload", "migrating the embedded database". */
  what: string;
  folder: string;
  freeBytes: number;
  /** Everything the write needs free, the reserve included. */
  neededBytes: number;
  reserveBytes: number;
}

/** The message of every refusal for lack of space: the folder, what it has, what was needed. */
export function insufficientStorageMessage({ what, folder, freeBytes, neededBytes, reserveBytes }: Shortfall): string {
  const reserve = reserveBytes > 0 ? ` (${formatBytes(reserveBytes)} of it kept free for the database)` : "";
  return `Not enough disk space for ${what}: the disk holding ${folder} has ${formatBytes(freeBytes)} free and this needs ${formatBytes(neededBytes)}${reserve}. Free some space and try again; no restart is needed.`;
}

/** The shortfall when `folder`'s disk cannot take `bytes` more and keep the reserve; undefined when it can. */
export async function shortfallOf(
  what: string,
  folder: string,
  bytes: number,
  reserveBytes = diskReserveBytes(),
): Promise<Shortfall | undefined> {
  const { freeBytes } = await diskSpaceOf(folder);
  const neededBytes = bytes + reserveBytes;
  return freeBytes >= neededBytes ? undefined : { what, folder, freeBytes, neededBytes, reserveBytes };
}

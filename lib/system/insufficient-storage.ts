import { isTrellisError, TrellisError } from "@/executor";
import { diskReserveBytes, insufficientStorageMessage, shortfallOf, type Shortfall } from "./disk-space";

const REFUSAL_START = "Not enough disk space";

/** 507 `insufficient_storage`: a write refused, or failed, for lack of disk space; retryable once space is freed. */
export class InsufficientStorageError extends TrellisError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("insufficient_storage", message, { retryable: true, cause: options.cause });
  }

  static of(shortfall: Shortfall, cause?: unknown): InsufficientStorageError {
    return new InsufficientStorageError(insufficientStorageMessage(shortfall), { cause });
  }
}

/** Refuses `what` before it writes `bytes` into `folder` when that would eat into the disk's reserve. */
export async function requireDiskSpace(
  what: string,
  folder: string,
  bytes: number,
  reserveBytes = diskReserveBytes(),
): Promise<void> {
  const shortfall = await shortfallOf(what, folder, bytes, reserveBytes);
  if (shortfall) throw InsufficientStorageError.of(shortfall);
}

/** SQLSTATE 53100 disk_full (PostgreSQL's, or the embedded database's refusal), or a file system's ENOSPC. */
function diskFullCause(error: unknown): { message: string; path?: string } | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 16) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const fields = current as Record<string, unknown>;
    if (fields.code === "ENOSPC" || fields.code === "53100" || fields.originalCode === "53100") {
      return {
        message: String(fields.originalMessage ?? fields.message ?? ""),
        path: typeof fields.path === "string" ? fields.path : undefined,
      };
    }
    // Prisma keeps the driver's error as `cause`, or as `meta.driverAdapterError` of a raw query's P2010.
    queue.push(fields.cause, fields.meta, fields.driverAdapterError);
  }
  return undefined;
}

/**
 * The 507 for an error that says a disk is full, else undefined. The embedded database's own
 * refusal already names its folder and the space; otherwise the message says what the error
 * names (the file being written).
 */
export function insufficientStorageOf(error: unknown): InsufficientStorageError | undefined {
  if (isTrellisError(error)) return error instanceof InsufficientStorageError ? error : undefined;
  const cause = diskFullCause(error);
  if (!cause) return undefined;
  const refusal = cause.message.indexOf(REFUSAL_START);
  if (refusal >= 0) return new InsufficientStorageError(cause.message.slice(refusal), { cause: error });
  const where = cause.path ? ` writing ${cause.path}` : "";
  return new InsufficientStorageError(
    `The server ran out of disk space${where}. Free some space and try again; no restart is needed.`,
    { cause: error },
  );
}

/** Whether an error says a disk is full (ENOSPC, SQLSTATE 53100), however deep in its causes. */
export function isDiskFullError(error: unknown): boolean {
  return diskFullCause(error) !== undefined;
}

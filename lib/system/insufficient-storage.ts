import { TrellisError } from "@/executor";
import { diskReserveBytes, diskSpaceOf, insufficientStorageMessage, shortfallOf, type Shortfall } from "./disk-space";

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
export async function requireDiskSpace(what: string, folder: string, bytes: number, reserveBytes = diskReserveBytes()): Promise<void> {
  const shortfall = await shortfallOf(what, folder, bytes, reserveBytes);
  if (shortfall) throw InsufficientStorageError.of(shortfall);
}

/** SQLSTATE 53100 disk_full (PostgreSQL's, or the embedded database's refusal), or a file system's ENOSPC. */
function diskFullCause(error: unknown): { message: string } | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    const fields = current as { code?: unknown; originalCode?: unknown; message?: unknown; originalMessage?: unknown; cause?: unknown };
    if (fields.code === "ENOSPC" || fields.code === "53100" || fields.originalCode === "53100") {
      return { message: String(fields.originalMessage ?? fields.message ?? "") };
    }
    current = fields.cause;
  }
  return undefined;
}

/**
 * The 507 for an error that says the disk is full, else undefined. The embedded database's own
 * refusal already names the folder and the space; a raw ENOSPC or disk_full is described from
 * `folder` as it is now.
 */
export async function asInsufficientStorage(error: unknown, what: string, folder: string): Promise<InsufficientStorageError | undefined> {
  const cause = diskFullCause(error);
  if (!cause) return undefined;
  if (cause.message.startsWith("Not enough disk space")) return new InsufficientStorageError(cause.message, { cause: error });
  const { freeBytes } = await diskSpaceOf(folder).catch(() => ({ freeBytes: 0 }));
  const reserveBytes = diskReserveBytes();
  return InsufficientStorageError.of({ what, folder, freeBytes, neededBytes: reserveBytes, reserveBytes }, error);
}

/** Whether an error says the disk is full (ENOSPC, SQLSTATE 53100), however deep in its causes. */
export function isDiskFullError(error: unknown): boolean {
  return diskFullCause(error) !== undefined;
}

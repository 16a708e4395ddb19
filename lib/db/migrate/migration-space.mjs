// Room to migrate the embedded database, and errors said in words: PGlite reports a full disk
// while it creates or migrates its files as an Emscripten ErrnoError (no message, errno 51), which
// printed as "[object Object]".
import { existsSync, statfsSync } from "node:fs";
import path from "node:path";

const MB = 1024 * 1024;
/** A new database's files with every migration applied take about 40 MB; PGlite stops answering if it runs out part-way. */
export const FREE_BYTES_TO_CREATE = 64 * MB;
/** Migrations on existing files write a little WAL and a checkpoint. */
export const FREE_BYTES_TO_MIGRATE = 16 * MB;
// Emscripten's (WASI's) errno for "no space left on device".
const EMSCRIPTEN_ENOSPC = 51;

/** @param {string} folder */
function freeBytesOf(folder) {
  let existing = path.resolve(folder);
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const stats = statfsSync(existing);
  return Number(stats.bavail) * Number(stats.bsize);
}

/** @param {number} bytes */
function megabytes(bytes) {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/**
 * Throws, naming the folder and both figures, when the disk holding `databaseDir` has less free
 * than creating (no files yet) or migrating the embedded database needs.
 * @param {string} databaseDir
 */
export function assertRoomToMigrate(databaseDir) {
  const creating = !existsSync(path.join(databaseDir, "PG_VERSION"));
  const needed = creating ? FREE_BYTES_TO_CREATE : FREE_BYTES_TO_MIGRATE;
  const free = freeBytesOf(databaseDir);
  if (free >= needed) return;
  throw new Error(
    `${creating ? "Creating" : "Migrating"} the embedded database needs ${megabytes(needed)} free on the disk holding ${databaseDir}, which has ${megabytes(free)} free. ` +
      "Free some space, or set DATA_DIR to a folder on a larger disk, and start again.",
  );
}

/**
 * An error as a person reads it, whatever was thrown (an Error, PGlite's ErrnoError, the schema
 * engine's plain objects); a full disk names the folder and its free space.
 * @param {unknown} error
 * @param {string} [databaseDir]
 * @returns {string}
 */
export function describeMigrationError(error, databaseDir) {
  const fields = /** @type {Record<string, unknown>} */ (typeof error === "object" && error !== null ? error : {});
  const diskFull = fields.errno === EMSCRIPTEN_ENOSPC || fields.code === "ENOSPC" || fields.code === "53100";
  if (diskFull && databaseDir) {
    const free = (() => {
      try {
        return `${megabytes(freeBytesOf(databaseDir))} free`;
      } catch {
        return "its free space unknown";
      }
    })();
    return `the disk holding ${databaseDir} is full (${free}; a new database needs about ${megabytes(FREE_BYTES_TO_CREATE)}). Free some space, or set DATA_DIR to a folder on a larger disk, and start again.`;
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof fields.message === "string" && fields.message) return fields.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

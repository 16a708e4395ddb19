// One process owns an embedded (PGlite) data directory: PGlite runs PostgreSQL inside the process,
// so two processes opening the same files would corrupt them. A lock file beside the directory
// turns that mistake into a clear error.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** @type {Map<string, number>} lock path -> how many holders in this process */
const held = new Map();
let exitHookInstalled = false;

/**
 * Takes the lock on `databaseDir` for this process (re-entrant). Returns the function that
 * releases it; the lock is also removed when the process exits.
 * @param {string} databaseDir
 * @returns {() => void}
 */
export function acquireEmbeddedLock(databaseDir) {
  const lockPath = `${databaseDir}.lock`;
  const count = held.get(lockPath) ?? 0;
  if (count === 0) {
    mkdirSync(path.dirname(lockPath), { recursive: true });
    createLockFile(lockPath, databaseDir);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", () => held.forEach((_, heldPath) => removeOwnLock(heldPath)));
    }
  }
  held.set(lockPath, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const remaining = (held.get(lockPath) ?? 1) - 1;
    if (remaining > 0) {
      held.set(lockPath, remaining);
      return;
    }
    held.delete(lockPath);
    removeOwnLock(lockPath);
  };
}

/**
 * @param {string} lockPath
 * @param {string} databaseDir
 */
function createLockFile(lockPath, databaseDir) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    const owner = readOwner(lockPath);
    if (owner === process.pid) return;
    if (owner !== undefined && isAlive(owner)) {
      throw new Error(
        `The embedded database in ${databaseDir} is in use by another process (pid ${owner}). ` +
          "Only one process can open it: stop the other one, or set DATABASE_URL to share a PostgreSQL server. " +
          `If no such process is running, delete ${lockPath}.`,
      );
    }
    // The owner died without cleaning up: take the lock over.
    try {
      unlinkSync(lockPath);
    } catch {
      // Someone else removed it first; try again.
    }
  }
  throw new Error(`Could not lock the embedded database in ${databaseDir} (${lockPath})`);
}

/** @param {string} lockPath */
function readOwner(lockPath) {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** @param {string} lockPath */
function removeOwnLock(lockPath) {
  if (readOwner(lockPath) !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}

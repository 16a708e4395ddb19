// One process owns an embedded (PGlite) data directory: PGlite runs PostgreSQL inside the process,
// so two processes opening the same files would corrupt them. A lock file beside the directory
// turns that mistake into a clear error.
//
// The lock records the owner's pid and, on Linux, its start time and the boot id: a pid alone is not
// an identity. A killed owner can linger as an unreaped zombie, and after a restart (containers
// especially, where pid 1 or a low pid comes back) the same pid belongs to another process; either
// would make a pid-only check refuse to start, the second one forever.
//
// File format, one item a line, pid first so that older versions (which read only a leading pid)
// still recognise a live owner instead of taking over a lock they cannot parse:
//   <pid>
//   startTime=<clock ticks after boot, field 22 of /proc/<pid>/stat>
//   bootId=<contents of /proc/sys/kernel/random/boot_id>
// A file holding only the pid (older versions, or no /proc) is checked by the pid alone.
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
      writeSync(fd, formatOwner(ownIdentity()));
      closeSync(fd);
      return;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    const owner = readOwner(lockPath);
    if (owner !== undefined && isOwnLock(owner)) return;
    if (owner !== undefined && isAlive(owner)) {
      throw new Error(
        `The embedded database in ${databaseDir} is in use by another process (pid ${owner.pid}). ` +
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

/**
 * @typedef {object} Owner
 * @property {number} pid
 * @property {number} [startTime] clock ticks after boot; absent without /proc or in older lock files
 * @property {string} [bootId]
 */

/** @param {Owner} owner */
function formatOwner(owner) {
  let text = `${owner.pid}\n`;
  if (owner.startTime !== undefined) text += `startTime=${owner.startTime}\n`;
  if (owner.bootId !== undefined) text += `bootId=${owner.bootId}\n`;
  return text;
}

/**
 * @param {string} lockPath
 * @returns {Owner | undefined}
 */
function readOwner(lockPath) {
  let text;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch {
    return undefined;
  }
  const [first = "", ...rest] = text.split("\n");
  const pid = Number(first.trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  /** @type {Owner} */
  const owner = { pid };
  for (const line of rest) {
    const separator = line.indexOf("=");
    if (separator < 0) continue;
    const key = line.slice(0, separator).trim();
    const value = line.slice(separator + 1).trim();
    if (key === "startTime" && /^\d+$/.test(value)) owner.startTime = Number(value);
    else if (key === "bootId" && value) owner.bootId = value;
  }
  return owner;
}

/** @type {Owner | undefined} */
let ownIdentityCache;

/** @returns {Owner} */
function ownIdentity() {
  if (!ownIdentityCache) {
    const stat = readProcStat(process.pid);
    const bootId = readBootId();
    ownIdentityCache = { pid: process.pid };
    // Without both, a recorded start time could not be told apart from one after a reboot.
    if (stat && bootId) {
      ownIdentityCache.startTime = stat.startTime;
      ownIdentityCache.bootId = bootId;
    }
  }
  return ownIdentityCache;
}

/**
 * A record without an identity (older lock file, or no /proc) naming this pid counts as ours: if
 * another process wrote it, that process no longer has this pid, and refusing would lock us out
 * for good.
 * @param {Owner} owner
 */
function isOwnLock(owner) {
  const own = ownIdentity();
  return (
    owner.pid === own.pid &&
    (owner.startTime === undefined || own.startTime === undefined || owner.startTime === own.startTime) &&
    (owner.bootId === undefined || own.bootId === undefined || owner.bootId === own.bootId)
  );
}

/** @param {Owner} owner */
function isAlive(owner) {
  if (owner.bootId !== undefined) {
    const bootId = readBootId();
    if (bootId !== undefined && bootId !== owner.bootId) return false;
  }
  const stat = readProcStat(owner.pid);
  // No stat: no /proc (macOS), or /proc hides other users' processes (hidepid), or the pid is gone.
  // kill(pid, 0) tells those apart well enough.
  if (!stat) return pidExists(owner.pid);
  // A zombie or dying process has released everything it held, the data directory included.
  if (stat.state === "Z" || stat.state === "X") return false;
  return owner.startTime === undefined || owner.startTime === stat.startTime;
}

/** @param {number} pid */
function pidExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * State (field 3) and start time (field 22) from /proc/<pid>/stat, or undefined when unreadable.
 * @param {number} pid
 * @returns {{ state: string, startTime: number } | undefined}
 */
function readProcStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Field 2 is the command name in parentheses and may itself hold spaces and parentheses; only
  // the last ")" reliably ends it.
  const fields = text
    .slice(text.lastIndexOf(")") + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const startTime = fields[22 - 3];
  if (!state || !startTime || !/^\d+$/.test(startTime)) return undefined;
  return { state, startTime: Number(startTime) };
}

function readBootId() {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** @param {string} lockPath */
function removeOwnLock(lockPath) {
  const owner = readOwner(lockPath);
  if (owner === undefined || !isOwnLock(owner)) return;
  try {
    unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}

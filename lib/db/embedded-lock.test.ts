import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireEmbeddedLock } from "./embedded-lock.mjs";

const lockModule = fileURLToPath(new URL("./embedded-lock.mjs", import.meta.url));

/** Tries to take the lock from another node process; returns what it printed. */
function lockFromAnotherProcess(databaseDir: string): string {
  const script = `import(${JSON.stringify(lockModule)}).then(({ acquireEmbeddedLock }) => { try { acquireEmbeddedLock(${JSON.stringify(databaseDir)}); console.log("locked"); } catch (error) { console.log(error.message); } })`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

describe("acquireEmbeddedLock", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-lock-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps a second process out of a data directory this process has open, with a clear message", () => {
    const databaseDir = path.join(dataDir, "busy", "pglite");
    const release = acquireEmbeddedLock(databaseDir);
    try {
      const message = lockFromAnotherProcess(databaseDir);
      expect(message).toContain(`is in use by another process (pid ${process.pid})`);
      expect(message).toContain("DATABASE_URL");
      // Re-entrant within one process (Next.js dev reloads).
      acquireEmbeddedLock(databaseDir)();
    } finally {
      release();
    }
    expect(existsSync(`${databaseDir}.lock`)).toBe(false);
    expect(lockFromAnotherProcess(databaseDir)).toBe("locked");
    // That process exited and removed its lock.
    expect(existsSync(`${databaseDir}.lock`)).toBe(false);
  });

  it("takes over a lock left by a process that no longer exists", () => {
    const databaseDir = path.join(dataDir, "stale", "pglite");
    const deadPid = Number(execFileSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).trim());
    acquireEmbeddedLock(databaseDir)();
    writeFileSync(`${databaseDir}.lock`, `${deadPid}\n`);
    const release = acquireEmbeddedLock(databaseDir);
    release();
  });
});

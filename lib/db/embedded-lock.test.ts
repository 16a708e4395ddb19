import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

/** State (field 3) and start time (field 22) of a process, read independently of the module. */
function procStat(pid: number): { state: string; startTime: string } {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text
    .slice(text.lastIndexOf(")") + 1)
    .trim()
    .split(" ");
  return { state: fields[0] ?? "", startTime: fields[19] ?? "" };
}

const hasProc = existsSync("/proc/self/stat") && existsSync("/proc/sys/kernel/random/boot_id");
const bootId = hasProc ? readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() : "";

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
    const deadPid = Number(
      execFileSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).trim(),
    );
    acquireEmbeddedLock(databaseDir)();
    writeFileSync(`${databaseDir}.lock`, `${deadPid}\n`);
    const release = acquireEmbeddedLock(databaseDir);
    release();
  });

  it("refuses for a live owner recorded in an older, pid-only lock file", () => {
    const databaseDir = path.join(dataDir, "legacy", "pglite");
    acquireEmbeddedLock(databaseDir)();
    writeFileSync(`${databaseDir}.lock`, `${process.pid}\n`);
    try {
      expect(lockFromAnotherProcess(databaseDir)).toContain(`is in use by another process (pid ${process.pid})`);
    } finally {
      rmSync(`${databaseDir}.lock`, { force: true });
    }
  });

  describe.runIf(hasProc)("with /proc", () => {
    it("records the owner's start time and boot id, and refuses while that process lives", () => {
      const databaseDir = path.join(dataDir, "identity", "pglite");
      const release = acquireEmbeddedLock(databaseDir);
      try {
        expect(readFileSync(`${databaseDir}.lock`, "utf8")).toBe(
          `${process.pid}\nstartTime=${procStat(process.pid).startTime}\nbootId=${bootId}\n`,
        );
        expect(lockFromAnotherProcess(databaseDir)).toBe(
          `The embedded database in ${databaseDir} is in use by another process (pid ${process.pid}). ` +
            "Only one process can open it: stop the other one, or set DATABASE_URL to share a PostgreSQL server. " +
            `If no such process is running, delete ${databaseDir}.lock.`,
        );
      } finally {
        release();
      }
    });

    it("takes over a lock whose owner was killed but not yet reaped (a zombie)", async () => {
      const databaseDir = path.join(dataDir, "zombie", "pglite");
      const lockPath = `${databaseDir}.lock`;
      // The command name ends up in /proc/<pid>/stat; parentheses and spaces in it would throw off a
      // parser that does not split after the last ")" (this one would read state "R").
      const oddNode = path.join(dataDir, "n) R 1 (x");
      symlinkSync(process.execPath, oddNode);
      const script = `import(${JSON.stringify(lockModule)}).then(({ acquireEmbeddedLock }) => { acquireEmbeddedLock(${JSON.stringify(databaseDir)}); setInterval(() => {}, 1000); })`;
      const child = spawn(oddNode, ["-e", script], { stdio: "ignore" });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const pid = child.pid!;
      try {
        for (
          let waited = 0;
          !(existsSync(lockPath) && readFileSync(lockPath, "utf8").startsWith(`${pid}\n`));
          waited += 20
        ) {
          if (waited > 15_000) throw new Error("the child never took the lock");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        process.kill(pid, "SIGKILL");
        // From here on nothing may yield to the event loop: Node would reap the child.
        const deadline = Date.now() + 5_000;
        while (procStat(pid).state !== "Z") {
          if (Date.now() > deadline) throw new Error(`child ${pid} did not become a zombie`);
        }
        const release = acquireEmbeddedLock(databaseDir);
        expect(procStat(pid).state).toBe("Z");
        expect(readFileSync(lockPath, "utf8")).toMatch(new RegExp(`^${process.pid}\n`));
        release();
      } finally {
        child.kill("SIGKILL");
        await exited;
      }
    });

    it("takes over a lock whose pid now belongs to another process (reused pid)", () => {
      const databaseDir = path.join(dataDir, "reused", "pglite");
      const lockPath = `${databaseDir}.lock`;
      const wrongStart = Number(procStat(process.pid).startTime) + 1;
      acquireEmbeddedLock(databaseDir)();
      writeFileSync(lockPath, `${process.pid}\nstartTime=${wrongStart}\nbootId=${bootId}\n`);
      expect(lockFromAnotherProcess(databaseDir)).toBe("locked");
      expect(existsSync(lockPath)).toBe(false);

      // The same pid as this process: a container restarted with the previous owner's pid.
      writeFileSync(lockPath, `${process.pid}\nstartTime=${wrongStart}\nbootId=${bootId}\n`);
      const release = acquireEmbeddedLock(databaseDir);
      expect(readFileSync(lockPath, "utf8")).toContain(`startTime=${procStat(process.pid).startTime}\n`);
      release();
      expect(existsSync(lockPath)).toBe(false);
    });

    it("takes over a lock written before a reboot", () => {
      const databaseDir = path.join(dataDir, "rebooted", "pglite");
      const lockPath = `${databaseDir}.lock`;
      acquireEmbeddedLock(databaseDir)();
      writeFileSync(
        lockPath,
        `${process.pid}\nstartTime=${procStat(process.pid).startTime}\nbootId=00000000-0000-0000-0000-000000000000\n`,
      );
      expect(lockFromAnotherProcess(databaseDir)).toBe("locked");
    });
  });
});

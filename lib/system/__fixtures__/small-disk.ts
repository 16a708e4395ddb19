import { execFileSync } from "node:child_process";
import { mkdtempSync, openSync, closeSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { diskSpaceOfSync } from "../disk-space";

/** A real, small file system (tmpfs) for full-disk tests; needs root (CI on this machine runs as root). */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until only `leaveFreeBytes` are left free. */
  fill(leaveFreeBytes: number): void;
  /** Deletes the filler. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `megabytes`; undefined (with the reason) where mounting is not permitted. */
export function mountSmallDisk(megabytes: number): SmallDisk | string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "trellis-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `mounting a ${megabytes} MB tmpfs needs root: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
  const filler = path.join(dir, "filler");
  return {
    dir,
    fill(leaveFreeBytes) {
      const chunk = Buffer.alloc(256 * 1024, 1);
      const fd = openSync(filler, "a");
      try {
        for (;;) {
          const free = diskSpaceOfSync(dir).freeBytes - leaveFreeBytes;
          if (free <= 0) break;
          writeSync(fd, chunk, 0, Math.min(chunk.length, free));
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

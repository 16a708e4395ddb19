import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FilesBase } from "./safe-path";
import { writeTextFile } from "./write-file";

/**
 * file_write against another writer that keeps swapping a folder of the files folder for a
 * symbolic link to a folder outside it (and back), in a separate process, while writes run:
 * nothing may land outside, whatever the timing.
 */

const SWAP_MS = 4_000;

let root: string;
let base: FilesBase;
let outside: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "trellis-write-race-")));
  outside = join(root, "outside");
  mkdirSync(outside);
  mkdirSync(join(root, "ws", "inbox"), { recursive: true });
  // A file of the same name on both sides: overwriting the inside one must never reach the outside one.
  writeFileSync(join(root, "ws", "inbox", "same.txt"), "inside");
  writeFileSync(join(outside, "same.txt"), "untouched");
  base = { realRoot: join(root, "ws"), label: "TRELLIS_FILES_ROOT/ws", maxBytes: 4_096 };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A process that, until `ms` have passed, moves `folder` aside, puts a link to `target` in its place, and puts it back. */
function swapper(folder: string, target: string, ms: number): Promise<number> {
  const script = `
    const fs = require("node:fs");
    const [folder, target, ms] = process.argv.slice(1);
    const end = Date.now() + Number(ms);
    let swaps = 0;
    const attempt = (work) => { try { work(); return true; } catch { return false; } };
    while (Date.now() < end) {
      if (attempt(() => fs.renameSync(folder, folder + ".aside")) && attempt(() => fs.symlinkSync(target, folder))) swaps++;
      attempt(() => fs.unlinkSync(folder));
      // A write may have made the folder anew while it was aside: that one goes, the original comes back.
      if (!attempt(() => fs.renameSync(folder + ".aside", folder))) {
        attempt(() => fs.rmSync(folder, { recursive: true, force: true }));
        attempt(() => fs.renameSync(folder + ".aside", folder));
      }
    }
    process.stdout.write(String(swaps));`;
  const child = spawn(process.execPath, ["-e", script, folder, target, String(ms)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", () => resolve(Number(output)));
  });
}

describe("file_write while a folder is swapped for a symbolic link", () => {
  it("never writes outside the files folder: each write lands inside or is refused", async () => {
    const swapping = swapper(join(base.realRoot, "inbox"), outside, SWAP_MS);
    const end = Date.now() + SWAP_MS - 200;
    let written = 0;
    let refused = 0;
    try {
      await writeRounds();
    } finally {
      // The swapper stops by itself; wait for it before anything is checked or removed.
      await swapping;
    }
    async function writeRounds() {
      for (let round = 0; Date.now() < end; round++) {
        const writes = Array.from({ length: 8 }, (_, index) =>
          writeTextFile(base, {
            path: index % 2 ? `inbox/${round}-${index}.txt` : `inbox/deeper/${round}-${index}.txt`,
            content: "payload",
          }),
        );
        for (const outcome of await Promise.allSettled(writes)) {
          if (outcome.status === "fulfilled") written++;
          else {
            if (!/^(file_refused|not_found)$/.test(String((outcome.reason as { code?: unknown }).code)))
              throw outcome.reason;
            refused++;
          }
        }
      }
    }
    const swaps = await swapping;
    expect(swaps).toBeGreaterThan(100);
    expect(written).toBeGreaterThan(0);
    expect(readdirSync(outside)).toEqual(["same.txt"]);
    expect(readFileSync(join(outside, "same.txt"), "utf8")).toBe("untouched");
    console.info(`write race: ${swaps} swaps, ${written} writes inside, ${refused} refused, nothing outside`);
  }, 30_000);
});

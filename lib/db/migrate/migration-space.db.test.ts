import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { mountSmallDisk, type SmallDisk } from "../../system/__fixtures__/small-disk";
import { describeMigrationError } from "./migration-space.mjs";

const disk = mountSmallDisk(20);
const skip = typeof disk === "string" ? disk : undefined;
if (skip) console.warn(`[migration-space.test] skipped: ${skip}`);

afterAll(() => {
  if (!skip) (disk as SmallDisk).unmount();
});

describe("migrating the embedded database", () => {
  it.skipIf(skip !== undefined)(
    "into a DATA_DIR too small says so in words, naming the folder and its free space",
    async () => {
      const dataDir = (disk as SmallDisk).dir;
      const run = promisify(execFile)(process.execPath, ["scripts/migrate.mjs"], {
        env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir },
        timeout: 60_000,
      });
      const failure = await run.then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(
        `needs 64 MB free on the disk holding ${path.join(dataDir, "pglite")}, which has 20 MB free`,
      );
      expect(failure?.stderr).not.toContain("[object Object]");
    },
    90_000,
  );

  it("describes PGlite's full-disk ErrnoError (no message, errno 51) with the folder instead of [object Object]", () => {
    const thrown = Object.assign(Object.create(null), { name: "ErrnoError", errno: 51 });
    expect(describeMigrationError(thrown, "/tmp")).toMatch(
      /^the disk holding \/tmp is full \([\d.]+ [KMG]B free; a new database needs about 64 MB\)/,
    );
    expect(describeMigrationError({ message: "relation exists" })).toBe("relation exists");
  });
});

import os from "node:os";
import { describe, expect, it } from "vitest";
import { checkDiskSpace } from "./disk-space";
import { checkReadiness, diskProbe } from "./readiness";

describe("readiness: the disk probe", () => {
  it("is ready while the disk keeps the reserve free", async () => {
    const readiness = await checkReadiness([diskProbe(os.tmpdir(), (folder) => checkDiskSpace(folder, 0))]);
    expect(readiness.ok).toBe(true);
    expect(readiness.checks.disk?.ok).toBe(true);
  });

  it("is not ready below the reserve, and says how much is free and kept free", async () => {
    const reserve = 1024 ** 5; // more than any disk here has: the real statfs reading falls under it
    const readiness = await checkReadiness([diskProbe(os.tmpdir(), (folder) => checkDiskSpace(folder, reserve))]);
    expect(readiness.ok).toBe(false);
    expect(readiness.checks.disk?.error).toMatch(
      /^The disk holding the database has \d+ MB free, under the 1073741824 MB kept free\.$/,
    );
  });
});

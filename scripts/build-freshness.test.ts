import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildNeeded, recordBuild } from "./build-freshness.mjs";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project folder with a little code and, if asked, a production build. */
function project({ built }: { built: boolean }) {
  const root = mkdtempSync(path.join(tmpdir(), "trellis-freshness-"));
  roots.push(root);
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write("package.json", "{}");
  write("app/page.tsx", "export default function Page() { return null; }");
  write("lib/runs/run-service.ts", "export const x = 1;");
  if (built) write(".next/BUILD_ID", "build-1");
  return { root, write };
}

describe("whether npm start must build first", () => {
  it("builds when there is no build, and not again once npm run build recorded the code it built", () => {
    const { root } = project({ built: false });
    expect(buildNeeded(root)).toBe("there is no production build yet");
    mkdirSync(path.join(root, ".next"));
    writeFileSync(path.join(root, ".next/BUILD_ID"), "build-1");
    recordBuild(root);
    expect(buildNeeded(root)).toBeNull();
  });

  it("rebuilds when code changes or is added, not for tests, docs or files Next.js rewrites", () => {
    const { root, write } = project({ built: true });
    recordBuild(root);
    write("lib/runs/run-service.test.ts", "it('x', () => {});");
    write("docs/OPERATIONS.md", "# figures");
    write("e2e/new.spec.ts", "// a browser test");
    write("next-env.d.ts", "/// <reference types='next' />");
    write(".data/pglite/PG_VERSION", "17");
    expect(buildNeeded(root)).toBeNull();

    write("lib/runs/run-service.ts", "export const x = 2;");
    expect(buildNeeded(root)).toBe("the code changed since the last build");
    write("lib/runs/run-service.ts", "export const x = 1;");
    expect(buildNeeded(root)).toBeNull();
    write("lib/copilot/index.ts", "export {};");
    expect(buildNeeded(root)).toBe("the code changed since the last build");
  });

  it("judges a build made by next build alone by the time of its files", () => {
    const { root, write } = project({ built: true });
    const past = new Date(Date.now() - 60_000);
    for (const file of ["package.json", "app/page.tsx", "lib/runs/run-service.ts"])
      utimesSync(path.join(root, file), past, past);
    expect(buildNeeded(root)).toBeNull();
    write("app/page.tsx", "export default function Page() { return 1; }");
    expect(buildNeeded(root)).toBe("the code changed since the last build");
  });
});

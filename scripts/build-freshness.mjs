// Whether the production build in .next was made from the code as it is now. `npm start` builds
// when it was not (first start, or the code changed since), and `npm run build` records what it built.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where the fingerprint of the built sources is kept: inside the build, so deleting .next forgets it. */
export const FINGERPRINT_FILE = path.join(".next", "trellis-source-fingerprint");

/**
 * What a build cannot depend on. Everything else counts, so a new folder of code is never missed: a needless
 * rebuild costs minutes once, a stale build serves old code.
 */
const SKIPPED_DIRECTORIES = new Set([
  "node_modules",
  ".next",
  ".git",
  ".data",
  ".ci",
  "e2e",
  "load",
  "docs",
  "test-results",
  "playwright-report",
  "__fixtures__",
  "bench",
  "coverage",
]);
// next-env.d.ts and tsconfig.json's includes are rewritten by `next build` itself; tests and docs are not built.
const SKIPPED_FILE = /(\.test\.tsx?|\.md|\.tsbuildinfo)$|^next-env\.d\.ts$/;

function sourceFiles(root, relative = "") {
  const files = [];
  for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const name = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) files.push(...sourceFiles(root, name));
    } else if (entry.isFile() && !SKIPPED_FILE.test(entry.name)) files.push(name);
  }
  return files;
}

/** A hash of every source file's path and content under `root` (the project folder). */
export function sourceFingerprint(root) {
  const hash = createHash("sha256");
  for (const file of sourceFiles(root).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * Why `root` needs a production build before it can start, or null when its build is of the current code: by the
 * fingerprint `npm run build` recorded, or, for a build made otherwise (`next build`), by whether any source file
 * is newer than it.
 */
export function buildNeeded(root) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return "there is no production build yet";
  const changed = "the code changed since the last build";
  const recorded = path.join(root, FINGERPRINT_FILE);
  if (existsSync(recorded)) return readFileSync(recorded, "utf8").trim() === sourceFingerprint(root) ? null : changed;
  const builtAt = statSync(buildId).mtimeMs;
  return sourceFiles(root).some((file) => statSync(path.join(root, file)).mtimeMs > builtAt) ? changed : null;
}

/** Records that the build in .next is of the code as it is now. */
export function recordBuild(root) {
  writeFileSync(path.join(root, FINGERPRINT_FILE), `${sourceFingerprint(root)}\n`);
}

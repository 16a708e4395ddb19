import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * vitest globalSetup of the tests that touch no database (vitest.config.ts): they still get a
 * DATA_DIR of their own (secret keys, MCP server lists), so they never touch a developer's data.
 */
export default function setup(): () => void {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-test-"));
  process.env.DATA_DIR = dataDir;
  return () => rmSync(dataDir, { recursive: true, force: true });
}

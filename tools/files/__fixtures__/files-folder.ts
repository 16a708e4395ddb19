import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolEntries } from "@/contract";
import { createToolRegistry } from "../../registry";
import type { ToolContext, ToolSet } from "../../types";
import { createFileToolProviders } from "../file-tools";
import { filesSettingsFrom, workspaceFiles } from "../files-settings";

export const WORKSPACE_ID = "ws-files-1";

/**
 * A real files root on disk: `<root>/ws-files-1` holds text files, a nested folder, a FIFO, a
 * socket, a big file and links in and out of it; `<root>/outside.txt` and `<root>/other-ws` sit
 * beside it, where no tool may reach.
 */
export interface FilesFolder {
  root: string;
  base: string;
  maxBytes: number;
  close(): Promise<void>;
}

export async function makeFilesFolder(maxBytes = 4_096): Promise<FilesFolder> {
  const root = mkdtempSync(join(tmpdir(), "trellis-files-"));
  const base = join(root, WORKSPACE_ID);
  mkdirSync(join(base, "notes", "deep"), { recursive: true });
  writeFileSync(join(base, "readme.md"), "# Handbook\nRefunds within 30 days.\nShipping takes 3 days.\n");
  writeFileSync(join(base, "notes", "todo.md"), "buy milk\nCall the SUPPLIER about refunds\n");
  writeFileSync(join(base, "notes", "deep", "plan.txt"), "step one\nstep two\n");
  writeFileSync(join(base, "notes", "image.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
  writeFileSync(join(base, "big.log"), "x".repeat(maxBytes + 1));
  mkdirSync(join(root, "other-ws"));
  writeFileSync(join(root, "other-ws", "secret.txt"), "another workspace's secret");
  writeFileSync(join(root, "outside.txt"), "outside the base");
  symlinkSync(join(base, "notes", "todo.md"), join(base, "todo-link.md"));
  symlinkSync("../outside.txt", join(base, "escape.txt"));
  symlinkSync("/etc", join(base, "etc-link"));
  symlinkSync(join(root, "other-ws"), join(base, "notes", "other"));
  symlinkSync("missing.txt", join(base, "dangling.txt"));
  execFileSync("mkfifo", [join(base, "pipe")]);
  const socketServer: Server = createServer();
  await new Promise<void>((resolve) => socketServer.listen(join(base, "socket"), resolve));
  return {
    root,
    base,
    maxBytes,
    async close() {
      await new Promise<void>((resolve) => socketServer.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export const toolContext: ToolContext = {
  runId: "r",
  workflowId: "w",
  blockId: "b",
  signal: new AbortController().signal,
  depth: 0,
  variables: {},
  toolSpan: () => undefined,
  startSpan: () => {
    throw new Error("not used");
  },
};

/** The file tools of the workspace as a run gets them, from the operator's environment. */
export async function fileToolsFor(
  folder: FilesFolder,
  entries: unknown[],
  env: Record<string, string> = {},
): Promise<ToolSet> {
  const settings = filesSettingsFrom(
    (name) => ({ TRELLIS_FILES_ROOT: folder.root, TRELLIS_FILES_MAX_BYTES: String(folder.maxBytes), ...env })[name],
  );
  const { read, write } = createFileToolProviders(workspaceFiles(settings, WORKSPACE_ID));
  return createToolRegistry([read, write]).resolve(toolEntries(entries), toolContext);
}

export async function callTool(tools: ToolSet, name: string, input: unknown): Promise<unknown> {
  return tools[name]!.execute!(input as never, { toolCallId: "call-1", messages: [] } as never);
}

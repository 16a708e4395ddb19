import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import type { Repositories } from "@/lib/db";
import { toolContext } from "@/tools/files/__fixtures__/files-folder";
import { createRuntime } from "./runtime";

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "trellis-runtime-files-"));
  for (const workspace of ["ws-a", "ws-b"]) {
    mkdirSync(join(root, workspace));
    writeFileSync(join(root, workspace, "notes.txt"), `${workspace}'s note`);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

// Tools are composed per workspace as a run's handlers are; no storage is read.
const runtime = () =>
  createRuntime({
    repositories: {} as Repositories,
    knowledgeSearch: async () => ({ results: [] }) as never,
    processEnv: (name) => ({ TRELLIS_FILES_ROOT: root, TRELLIS_FILES_WRITE: "ws-a" })[name],
    guardedFetch: fetch as never,
  });

async function readAs(workspaceId: string, path: string): Promise<unknown> {
  const tools = await runtime()
    .prepareHandlers(workspaceId, () => undefined)
    .tools.resolve(toolEntries(["file_read"]), toolContext);
  return tools.file_read!.execute!({ path } as never, { toolCallId: "c1", messages: [] } as never);
}

describe("file tools as the runtime gives them to a workspace's runs", () => {
  it("read the run's own workspace folder and nothing of another workspace", async () => {
    expect(await readAs("ws-a", "notes.txt")).toMatchObject({ content: "ws-a's note" });
    expect(await readAs("ws-b", "notes.txt")).toMatchObject({ content: "ws-b's note" });
    await expect(readAs("ws-a", "../ws-b/notes.txt")).rejects.toMatchObject({
      code: "file_refused",
      message:
        '"../ws-b/notes.txt" is outside the workspace files folder (TRELLIS_FILES_ROOT/ws-a): ".." may not climb out of it',
    });
    await expect(readAs("ws-c", "notes.txt")).rejects.toMatchObject({
      code: "invalid_tool",
      message: expect.stringContaining("This workspace has no files folder") as unknown,
    });
  });

  it("write only where the operator listed the workspace", async () => {
    const tools = (workspaceId: string) =>
      runtime()
        .prepareHandlers(workspaceId, () => undefined)
        .tools.resolve(toolEntries(["file_write"]), toolContext);
    expect(Object.keys(await tools("ws-a"))).toEqual(["file_write"]);
    await expect(tools("ws-b")).rejects.toMatchObject({
      code: "invalid_tool",
      message: expect.stringContaining("writing files is off for this workspace") as unknown,
    });
  });
});

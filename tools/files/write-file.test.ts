import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileToolProviders } from "./file-tools";
import { filesSettingsFrom, workspaceFiles } from "./files-settings";
import { callTool, fileToolsFor, makeFilesFolder, WORKSPACE_ID, type FilesFolder } from "./__fixtures__/files-folder";

let folder: FilesFolder;

beforeAll(async () => {
  folder = await makeFilesFolder();
});

afterAll(() => folder.close());

const writable = () => fileToolsFor(folder, ["file_write", "file_read"], { TRELLIS_FILES_WRITE: "on" });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error as { code: string; message: string },
  );

describe("file_write", () => {
  it("is refused when the operator has not turned writes on, before the model is asked anything", async () => {
    await expect(fileToolsFor(folder, ["file_write"])).rejects.toMatchObject({
      code: "invalid_tool",
      message:
        "file_write: writing files is off for this workspace; the operator turns it on with TRELLIS_FILES_WRITE=on (or a list of workspace ids)",
    });
    await expect(fileToolsFor(folder, ["file_write"], { TRELLIS_FILES_WRITE: "some-other-ws" })).rejects.toMatchObject({
      code: "invalid_tool",
    });
    expect(
      Object.keys(await fileToolsFor(folder, ["file_write"], { TRELLIS_FILES_WRITE: `x, ${WORKSPACE_ID}` })),
    ).toEqual(["file_write"]);
  });

  it("is marked as having side effects, unlike the reading tools", () => {
    const { read, write } = createFileToolProviders(
      workspaceFiles(
        filesSettingsFrom(() => undefined),
        WORKSPACE_ID,
      ),
    );
    expect(write.sideEffects).toBe(true);
    expect(read.sideEffects).toBeUndefined();
  });

  it("creates a file with its folders, then overwrites it; file_read reads it back", async () => {
    const tools = await writable();
    expect(await callTool(tools, "file_write", { path: "out/2026/summary.md", content: "first" })).toEqual({
      path: "out/2026/summary.md",
      bytes: 5,
      created: true,
    });
    expect(await callTool(tools, "file_write", { path: "out/2026/summary.md", content: "second draft" })).toEqual({
      path: "out/2026/summary.md",
      bytes: 12,
      created: false,
    });
    expect(readFileSync(join(folder.base, "out", "2026", "summary.md"), "utf8")).toBe("second draft");
    expect(await callTool(tools, "file_read", { path: "out/2026/summary.md" })).toMatchObject({
      content: "second draft",
    });
  });

  it("writes through a link inside the folder to its target", async () => {
    const tools = await writable();
    await callTool(tools, "file_write", { path: "todo-link.md", content: "rewritten through the link\n" });
    expect(readFileSync(join(folder.base, "notes", "todo.md"), "utf8")).toBe("rewritten through the link\n");
  });

  it("refuses paths out of the folder, through links out, and special files, writing nothing", async () => {
    const tools = await writable();
    const base = `TRELLIS_FILES_ROOT/${WORKSPACE_ID}`;
    expect(await refusal(callTool(tools, "file_write", { path: "../planted.txt", content: "x" }))).toMatchObject({
      code: "file_refused",
      message: `"../planted.txt" is outside the workspace files folder (${base}): ".." may not climb out of it`,
    });
    expect(await refusal(callTool(tools, "file_write", { path: "/tmp/planted.txt", content: "x" }))).toMatchObject({
      code: "file_refused",
    });
    expect(await refusal(callTool(tools, "file_write", { path: "escape.txt", content: "x" }))).toMatchObject({
      message: `"escape.txt" is outside the workspace files folder (${base}): it is reached through a symbolic link that leads out of the folder`,
    });
    expect(
      await refusal(callTool(tools, "file_write", { path: "notes/other/new/planted.txt", content: "x" })),
    ).toMatchObject({ code: "file_refused" });
    expect(await refusal(callTool(tools, "file_write", { path: "pipe", content: "x" }))).toMatchObject({
      code: "file_refused",
      message: expect.stringContaining("FIFO") as unknown,
    });
    expect(readFileSync(join(folder.root, "outside.txt"), "utf8")).toBe("outside the base");
    expect(existsSync(join(folder.root, "planted.txt"))).toBe(false);
    expect(existsSync(join(folder.root, "other-ws", "new"))).toBe(false);
  });

  it("refuses content over the size limit, naming both sizes", async () => {
    const tools = await writable();
    expect(await refusal(callTool(tools, "file_write", { path: "huge.txt", content: "y".repeat(5000) }))).toMatchObject(
      {
        code: "too_large",
        message: 'The content for "huge.txt" is 5,000 bytes, over the limit of 4,096 bytes (TRELLIS_FILES_MAX_BYTES)',
      },
    );
    expect(existsSync(join(folder.base, "huge.txt"))).toBe(false);
  });
});

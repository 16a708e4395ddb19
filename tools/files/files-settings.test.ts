import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesSettingsFrom, workspaceFiles } from "./files-settings";
import { fileToolsFor, makeFilesFolder, WORKSPACE_ID, type FilesFolder } from "./__fixtures__/files-folder";

const envOf = (values: Record<string, string>) => (name: string) => values[name];
let folder: FilesFolder;

beforeAll(async () => {
  folder = await makeFilesFolder();
});

afterAll(() => folder.close());

describe("file tool settings", () => {
  it("are off with nothing set, with a 1 MiB limit and no writes", () => {
    expect(filesSettingsFrom(envOf({}))).toEqual({ root: null, maxBytes: 1_048_576, write: false });
  });

  it("resolve a relative root against the working folder and read the write list", () => {
    const settings = filesSettingsFrom(
      envOf({ TRELLIS_FILES_ROOT: "data/files", TRELLIS_FILES_WRITE: "ws-a, ws-b" }),
      "/srv/trellis",
    );
    expect(settings.root).toBe("/srv/trellis/data/files");
    expect(settings.write).toEqual(new Set(["ws-a", "ws-b"]));
    expect(filesSettingsFrom(envOf({ TRELLIS_FILES_WRITE: "on" })).write).toBe(true);
  });

  it("refuse bad values, naming the variable", () => {
    expect(() => filesSettingsFrom(envOf({ TRELLIS_FILES_MAX_BYTES: "1MB" }))).toThrow(
      'TRELLIS_FILES_MAX_BYTES must be a whole number of bytes from 1 to 104857600, not "1MB"',
    );
    expect(() => filesSettingsFrom(envOf({ TRELLIS_FILES_WRITE: "yes please" }))).toThrow(
      'TRELLIS_FILES_WRITE must be "on", "off" or a comma-separated list of workspace ids, not "yes please"',
    );
  });

  it("give a workspace its own folder only when the operator made it", () => {
    const settings = filesSettingsFrom(envOf({ TRELLIS_FILES_ROOT: folder.root }));
    expect(workspaceFiles(settings, WORKSPACE_ID)).toMatchObject({
      base: folder.base,
      label: `TRELLIS_FILES_ROOT/${WORKSPACE_ID}`,
      writable: false,
    });
    expect(workspaceFiles(settings, "ws-without-folder")).toMatchObject({
      base: null,
      unavailableReason:
        "This workspace has no files folder: the operator creates TRELLIS_FILES_ROOT/ws-without-folder (a folder named after the workspace id under TRELLIS_FILES_ROOT) to give it one",
    });
    expect(workspaceFiles(settings, "../other-ws").base).toBeNull();
  });

  it("make an agent's file tools fail at its start, saying why, when the instance has none", async () => {
    await expect(fileToolsFor({ ...folder, root: "" }, ["file_read", "file_search"])).rejects.toMatchObject({
      code: "invalid_tool",
      message:
        "file_read, file_search: File tools are off on this instance: the operator sets TRELLIS_FILES_ROOT to turn them on",
    });
  });
});

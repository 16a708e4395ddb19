import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolSet } from "../types";
import { callTool, fileToolsFor, makeFilesFolder, WORKSPACE_ID, type FilesFolder } from "./__fixtures__/files-folder";

let folder: FilesFolder;
let tools: ToolSet;
const BASE = `TRELLIS_FILES_ROOT/${WORKSPACE_ID}`;

beforeAll(async () => {
  folder = await makeFilesFolder();
  tools = await fileToolsFor(folder, ["file_read", "file_list", "file_search", "file_info"]);
});

afterAll(() => folder.close());

const read = (input: unknown) => callTool(tools, "file_read", input);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as { code: string; message: string },
  );

describe("file_read", () => {
  it("reads a text file whole, and a range of lines", async () => {
    expect(await read({ path: "notes/todo.md" })).toEqual({
      path: "notes/todo.md",
      size: 41,
      content: "buy milk\nCall the SUPPLIER about refunds\n",
      totalLines: 2,
      startLine: 1,
      endLine: 2,
      truncated: false,
    });
    expect(await read({ path: "readme.md", startLine: 2, endLine: 3 })).toMatchObject({
      content: "Refunds within 30 days.\nShipping takes 3 days.",
      totalLines: 3,
    });
    expect(await read({ path: "readme.md", maxBytes: 10 })).toMatchObject({ content: "# Handbook", truncated: true });
  });

  it("follows a link that stays inside the folder", async () => {
    expect(await read({ path: "todo-link.md" })).toMatchObject({
      path: "todo-link.md",
      content: expect.stringContaining("buy milk") as unknown,
    });
  });

  it.each([
    [
      "../outside.txt",
      `"../outside.txt" is outside the workspace files folder (${BASE}): ".." may not climb out of it`,
    ],
    [
      "notes/../../other-ws/secret.txt",
      `"notes/../../other-ws/secret.txt" is outside the workspace files folder (${BASE}): ".." may not climb out of it`,
    ],
    [
      "/etc/passwd",
      `"/etc/passwd" is outside the workspace files folder (${BASE}): paths are relative to that folder, such as "notes/todo.md"`,
    ],
    [
      "escape.txt",
      `"escape.txt" is outside the workspace files folder (${BASE}): it is reached through a symbolic link that leads out of the folder`,
    ],
    [
      "etc-link/passwd",
      `"etc-link/passwd" is outside the workspace files folder (${BASE}): it is reached through a symbolic link that leads out of the folder`,
    ],
    [
      "notes/other/secret.txt",
      `"notes/other/secret.txt" is outside the workspace files folder (${BASE}): it is reached through a symbolic link that leads out of the folder`,
    ],
  ])("refuses %s, naming the folder as configured and never the host path", async (path, message) => {
    const error = await refusal(read({ path }));
    expect(error).toMatchObject({ code: "file_refused", message });
    expect(error.message).not.toContain(folder.root);
  });

  it("takes percent-encoded and backslashed traversal literally: a missing file inside the folder", async () => {
    for (const path of ["%2e%2e/outside.txt", "..%2foutside.txt", "..\\outside.txt"]) {
      const error = await refusal(read({ path }));
      expect(error).toMatchObject({
        code: "not_found",
        message: `${JSON.stringify(path)} does not exist in the workspace files folder (${BASE})`,
      });
    }
  });

  it("refuses a FIFO and a socket without blocking, and a directory with a hint", async () => {
    expect(await refusal(read({ path: "pipe" }))).toMatchObject({
      code: "file_refused",
      message:
        '"pipe" is a FIFO (named pipe), not a regular file, so it cannot be read; file tools only touch regular files',
    });
    expect(await refusal(read({ path: "socket" }))).toMatchObject({
      code: "file_refused",
      message: expect.stringContaining("is a socket") as unknown,
    });
    expect(await refusal(read({ path: "notes" }))).toMatchObject({
      message: '"notes" is a directory, not a regular file, so it cannot be read; use file_list to see what it holds',
    });
  });

  it("refuses a file over the size limit with its size and the limit, and binary content", async () => {
    expect(await refusal(read({ path: "big.log" }))).toMatchObject({
      code: "too_large",
      message: '"big.log" is 4,097 bytes, over the limit of 4,096 bytes (TRELLIS_FILES_MAX_BYTES)',
    });
    expect(await refusal(read({ path: "notes/image.bin" }))).toMatchObject({
      code: "file_refused",
      message: expect.stringContaining("is not a text file") as unknown,
    });
  });

  it("names the folder by its label, not the host path, in an unexpected file-system error", async () => {
    const error = await refusal(read({ path: "n".repeat(300) }));
    expect(error).toMatchObject({ code: "file_refused", message: expect.stringContaining(`ENAMETOOLONG`) as unknown });
    expect(error.message).toContain(`${BASE}/nnn`);
    expect(error.message).not.toContain(folder.root);
  });

  it("says plainly when a file or a link's target is missing", async () => {
    expect(await refusal(read({ path: "nope.md" }))).toMatchObject({ code: "not_found" });
    expect(await refusal(read({ path: "dangling.txt" }))).toMatchObject({
      message: '"dangling.txt" is a symbolic link to something that does not exist',
    });
  });
});

describe("file_list", () => {
  it("lists entries with type and size, describing links by where they lead", async () => {
    const listing = (await callTool(tools, "file_list", {})) as {
      entries: Array<Record<string, unknown>>;
      truncated: boolean;
    };
    expect(listing.truncated).toBe(false);
    expect(listing.entries).toEqual([
      { path: "big.log", type: "file", size: 4097 },
      { path: "dangling.txt", type: "symlink", link: "broken" },
      { path: "escape.txt", type: "symlink", link: "outside" },
      { path: "etc-link", type: "symlink", link: "outside" },
      { path: "notes", type: "directory" },
      { path: "pipe", type: "fifo" },
      { path: "readme.md", type: "file", size: 58 },
      { path: "socket", type: "socket" },
      { path: "todo-link.md", type: "file", size: 41, link: "inside" },
    ]);
  });

  it("lists recursively without entering links, up to the cap", async () => {
    const listing = (await callTool(tools, "file_list", { path: "notes", recursive: true })) as {
      entries: Array<{ path: string }>;
    };
    expect(listing.entries.map((entry) => entry.path)).toEqual([
      "notes/deep",
      "notes/image.bin",
      "notes/other",
      "notes/todo.md",
      "notes/deep/plan.txt",
    ]);
    const capped = (await callTool(tools, "file_list", { recursive: true, maxEntries: 3 })) as {
      entries: unknown[];
      truncated: boolean;
    };
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.entries).toHaveLength(3);
  });

  it("refuses a folder out of the base", async () => {
    expect(await refusal(callTool(tools, "file_list", { path: ".." }))).toMatchObject({
      code: "file_refused",
      message: expect.stringContaining(BASE) as unknown,
    });
    expect(await refusal(callTool(tools, "file_list", { path: "etc-link" }))).toMatchObject({ code: "file_refused" });
  });
});

describe("file_search", () => {
  it("finds files by name glob, at any depth without a slash", async () => {
    const byName = (await callTool(tools, "file_search", { pattern: "*.md" })) as { matches: Array<{ path: string }> };
    expect(byName.matches.map((match) => match.path)).toEqual(["readme.md", "notes/todo.md"]);
    const byPath = (await callTool(tools, "file_search", { pattern: "notes/**/*.txt" })) as {
      matches: Array<{ path: string }>;
    };
    expect(byPath.matches.map((match) => match.path)).toEqual(["notes/deep/plan.txt"]);
  });

  it("finds text in contents ignoring case, skipping big and binary files and never following links out", async () => {
    const found = (await callTool(tools, "file_search", { text: "refunds" })) as Record<string, unknown>;
    expect(found).toEqual({
      matches: [
        { path: "readme.md", size: 58, line: 2, excerpt: "Refunds within 30 days." },
        { path: "notes/todo.md", size: 41, line: 2, excerpt: "Call the SUPPLIER about refunds" },
      ],
      truncated: false,
      filesSearched: 5,
      skipped: { tooLarge: 1, notText: 1 },
    });
    const secret = (await callTool(tools, "file_search", { text: "secret" })) as { matches: unknown[] };
    expect(secret.matches).toEqual([]);
  });

  it("stops at maxResults and asks for a pattern or text", async () => {
    expect(await callTool(tools, "file_search", { text: "step", maxResults: 1 })).toMatchObject({
      truncated: true,
      matches: [{ path: "notes/deep/plan.txt", line: 1 }],
    });
    expect(await refusal(callTool(tools, "file_search", {}))).toMatchObject({
      message: expect.stringContaining('give a "pattern"') as unknown,
    });
  });
});

describe("file_info", () => {
  it("gives type, size and times, and whether file_read would read it", async () => {
    expect(await callTool(tools, "file_info", { path: "readme.md" })).toMatchObject({
      path: "readme.md",
      type: "file",
      size: 58,
      readable: true,
    });
    expect(await callTool(tools, "file_info", { path: "big.log" })).toMatchObject({ type: "file", readable: false });
    expect(await callTool(tools, "file_info", { path: "pipe" })).toMatchObject({ type: "fifo", readable: false });
    expect(await callTool(tools, "file_info", { path: "todo-link.md" })).toMatchObject({ type: "file", link: true });
    expect(await refusal(callTool(tools, "file_info", { path: "escape.txt" }))).toMatchObject({ code: "file_refused" });
  });
});

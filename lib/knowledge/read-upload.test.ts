import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "@/contract";
import { multipartRequest } from "./__fixtures__/multipart-request";
import { streamedUpload } from "./__fixtures__/streamed-upload";
import { readUploadForm } from "./read-upload";

const MB = 1024 * 1024;
const limits = { maxFileBytes: 1 * MB, maxFiles: 2 };
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "read-upload-test-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function form(files: Array<{ name: string; content: string }>, fields: Record<string, string> = {}): Promise<Request> {
  const data = new FormData();
  for (const file of files) data.append("file", new Blob([file.content]), file.name);
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return multipartRequest(data);
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => expect.fail("the upload was accepted"),
    (error: { code: string; message: string }) => error,
  );
}

describe("readUploadForm", () => {
  it("streams each file to a temporary file with its safe name, metadata and tags, and deletes them on dispose", async () => {
    const upload = await readUploadForm(
      await form(
        [
          { name: "../a.md", content: "# A" },
          { name: "b.txt", content: "bee" },
        ],
        { metadata: '{"team":"ops"}', tags: "x, y" },
      ),
      limits,
      root,
    );
    expect(upload.files.map((file) => ({ name: file.name, size: "size" in file ? file.size : -1 }))).toEqual([
      { name: "a.md", size: 3 },
      { name: "b.txt", size: 3 },
    ]);
    const second = upload.files[1]!;
    expect("path" in second && (await readFile(second.path, "utf8"))).toBe("bee");
    expect(upload.metadata).toEqual({ team: "ops", tags: ["x", "y"] });
    await upload.dispose();
    expect(await readdir(root)).toEqual([]);
  });

  it("stops reading a file at the per-file limit, answers 413 naming it, and leaves no file behind", async () => {
    const sent = streamedUpload({ name: "huge.txt", bytes: 200 * MB });
    const error = await refusal(readUploadForm(sent.request, limits, root));
    expect(error).toMatchObject({ code: "too_large", message: '"huge.txt" is over 1 MB; files may be at most 1 MB' });
    expect(sent.cancelled()).toBe(true);
    expect(sent.pulled()).toBeLessThan(1 * MB + 256 * 1024);
    expect(await readdir(root)).toEqual([]);
  });

  it("stops at the per-request limit while reading, even for parts it discards", async () => {
    const sent = streamedUpload({ name: "other.bin", field: "attachment", bytes: 200 * MB });
    const error = await refusal(readUploadForm(sent.request, limits, root));
    expect(error).toMatchObject({ code: "too_large", message: "The upload is larger than 3 MB per request" });
    expect(sent.cancelled()).toBe(true);
    expect(sent.pulled()).toBeLessThan(3 * MB + 256 * 1024);
    expect(await readdir(root)).toEqual([]);
  });

  it("refuses metadata nested too deep or with a __proto__ key with 400 naming the limit or the key, leaving nothing behind", async () => {
    const deep = await form([{ name: "a.txt", content: "a" }], {
      metadata: `{"team":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
    });
    expect(await refusal(readUploadForm(deep, limits, root))).toMatchObject({
      code: "invalid_json",
      message: `The metadata field is nested deeper than the limit of ${MAX_JSON_DEPTH} levels (at metadata.team[0][0][0][0][0]…[0][0]).`,
      details: [{ path: "metadata.team[0][0][0][0][0]…[0][0]" }],
    });
    const proto = await form([{ name: "a.txt", content: "a" }], {
      metadata: '{"team":"ops","__proto__":{"admin":true}}',
    });
    expect(await refusal(readUploadForm(proto, limits, root))).toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/^The metadata field uses "__proto__" as a key \(at metadata.__proto__\)/),
    });
    expect(await readdir(root)).toEqual([]);
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const sent = streamedUpload({ name: "a.txt", bytes: 10 * MB, headers: { "content-length": String(10 * MB) } });
    const error = await refusal(readUploadForm(sent.request, limits, root));
    expect(error).toMatchObject({ code: "too_large", message: "The upload is 10 MB; at most 3 MB per request" });
    expect(sent.pulled()).toBe(0);
  });

  it("refuses more files than allowed, text in the file field, and bad metadata, leaving nothing behind", async () => {
    const three = [1, 2, 3].map((index) => ({ name: `${index}.txt`, content: "x" }));
    expect(await refusal(readUploadForm(await form(three), limits, root))).toMatchObject({
      code: "too_large",
      message: "At most 2 files per upload",
    });
    const text = new FormData();
    text.append("file", "just text");
    const asText = await multipartRequest(text);
    expect(await refusal(readUploadForm(asText, limits, root))).toMatchObject({
      code: "invalid_request",
      message: "file[0] is text, not a file",
    });
    const badMetadata = await form([{ name: "a.txt", content: "a" }], { metadata: "[1]" });
    expect(await refusal(readUploadForm(badMetadata, limits, root))).toMatchObject({
      code: "invalid_request",
      message: "The metadata field must be a JSON object",
    });
    const notJson = await form([{ name: "a.txt", content: "a" }], { metadata: "{team: ops}" });
    expect(await refusal(readUploadForm(notJson, limits, root))).toMatchObject({
      code: "invalid_json",
      message: expect.stringMatching(/^The metadata field is not valid JSON/),
    });
    const cut = new Request("http://localhost/x", {
      method: "POST",
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc',
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    expect(await refusal(readUploadForm(cut, limits, root))).toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/^The multipart body could not be read/),
    });
    expect(await readdir(root)).toEqual([]);
  });
});

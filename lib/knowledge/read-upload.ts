import "server-only";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { RequestError } from "@/lib/http/errors";
import { parseUntrustedJson } from "@/lib/http/read-json";
import { safeFileName } from "@/knowledge";
import { diskSpaceOf } from "@/lib/system/disk-space";
import { InsufficientStorageError, isDiskFullError, requireDiskSpace } from "@/lib/system/insufficient-storage";
import { UPLOAD_LIMITS } from "./knowledge-settings";

/** A file of an upload: in memory (scripts, tests) or in a temporary file (an HTTP upload). */
export type UploadedFile = { name: string; bytes: Uint8Array } | { name: string; path: string; size: number };

export interface UploadForm {
  files: UploadedFile[];
  metadata: Record<string, unknown>;
  /** Deletes the temporary files; call it once the files are stored or refused. */
  dispose(): Promise<void>;
}

/** Text fields are small: metadata JSON and tags. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 50;

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function parseMetadata(fields: Map<string, string>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const raw = fields.get("metadata");
  if (raw?.trim()) {
    // Deep or `__proto__` metadata is refused before parsing: it is stored and copied below.
    const parsed = parseUntrustedJson(raw, { subject: "The metadata field", path: "metadata" });
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new RequestError("invalid_request", "The metadata field must be a JSON object", [
        { path: "metadata", message: "must be an object" },
      ]);
    }
    Object.assign(metadata, parsed);
  }
  const tags = fields.get("tags");
  if (tags?.trim())
    metadata.tags = tags
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean);
  return metadata;
}

/**
 * Streams the multipart body into files under `directory`, counting bytes as they arrive: the
 * first limit passed stops reading at once (the rest of the body is never read) and throws 413.
 */
async function streamParts(
  request: Request,
  contentType: string,
  limits: typeof UPLOAD_LIMITS,
  maxBody: number,
  directory: string,
) {
  const files: Array<{ name: string; path: string; size: number }> = [];
  const fields = new Map<string, string>();
  let failure: Error | undefined;
  let wake = () => {};
  const fail = (error: Error) => {
    failure ??= error;
    wake();
  };
  const unreadable = (error: unknown) =>
    fail(
      new RequestError(
        "invalid_request",
        `The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
    });
  } catch {
    throw new RequestError("invalid_request", "The multipart body could not be read: its content type has no boundary");
  }
  const writes: Array<Promise<void>> = [];
  const streams: Array<Readable | Writable> = [];
  parser.on("file", (field, stream, info) => {
    // Parts not kept are drained; cutting the body short later errors them, which is expected.
    if (failure || field !== "file") return void stream.on("error", () => {}).resume();
    const index = files.length;
    const file = { name: safeFileName(info.filename ?? ""), path: path.join(directory, String(index)), size: 0 };
    files.push(file);
    stream.on("data", (chunk: Buffer) => (file.size += chunk.length));
    stream.on("limit", () =>
      fail(
        new RequestError(
          "too_large",
          `"${file.name}" is over ${megabytes(limits.maxFileBytes)}; files may be at most ${megabytes(limits.maxFileBytes)}`,
          [{ path: `file[${index}]`, message: "is too large" }],
        ),
      ),
    );
    // A disk that fails is the server's error (500, or 507 when it is full), not the sender's.
    const output = createWriteStream(file.path);
    streams.push(stream, output);
    writes.push(pipeline(stream, output).catch((error: Error) => fail(error)));
  });
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated)
      fail(
        new RequestError("too_large", `The field "${name}" is over ${MAX_FIELD_BYTES / 1024} KB`, [
          { path: name, message: "is too large" },
        ]),
      );
    else if (name === "file") {
      const path = `file[${files.length}]`;
      fail(new RequestError("invalid_request", `${path} is text, not a file`, [{ path, message: "must be a file" }]));
    } else fields.set(name, value);
  });
  parser.on("filesLimit", () => fail(new RequestError("too_large", `At most ${limits.maxFiles} files per upload`)));
  parser.on("fieldsLimit", () => fail(new RequestError("too_large", `At most ${MAX_FIELDS} fields per upload`)));
  parser.on("error", unreadable);
  const closed = new Promise<void>((resolve) => parser.on("close", resolve));
  // Waits for `event`, or for a failure; a failure may already have come while writing.
  const until = (event: Promise<void>) =>
    failure ? Promise.resolve() : Promise.race([event, new Promise<void>((resolve) => (wake = resolve))]);

  const reader = request.body!.getReader();
  let received = 0;
  try {
    while (!failure) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBody)
        fail(new RequestError("too_large", `The upload is larger than ${megabytes(maxBody)} per request`));
      else if (!parser.write(value)) await until(new Promise<void>((resolve) => parser.once("drain", resolve)));
    }
    if (!failure) {
      parser.end();
      await until(closed);
    }
    if (!failure) await Promise.all(writes);
  } catch (error) {
    unreadable(error); // the sender went away mid-body
  } finally {
    if (failure) {
      // Stop the sender: nothing past the limit is read, and the open files are closed before they are deleted.
      await reader.cancel().catch(() => {});
      parser.destroy();
      // Both ends: a part cut off before its end does not always end its pipeline by itself.
      for (const stream of streams) stream.destroy();
      await Promise.allSettled(writes);
    }
  }
  if (failure) throw failure;
  return { files, fields };
}

/**
 * Reads a multipart upload: every `file` field (one or more), an optional `metadata` JSON object
 * and optional comma-separated `tags`. Files are streamed to a temporary directory, never held
 * in memory; an oversize body or file is refused with 413 as soon as it passes its limit, and a
 * refused upload leaves no file behind. Names are reduced to a safe base name.
 */
export async function readUploadForm(
  request: Request,
  limits = UPLOAD_LIMITS,
  tempRoot = tmpdir(),
): Promise<UploadForm> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const maxBody = limits.maxFiles * limits.maxFileBytes + 1024 * 1024;
  if (declared > maxBody)
    throw new RequestError(
      "too_large",
      `The upload is ${megabytes(declared)}; at most ${megabytes(maxBody)} per request`,
    );
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data") || !request.body) {
    throw new RequestError("invalid_request", 'Upload files as multipart/form-data with the field "file"');
  }
  const what = "this upload's temporary files";
  // The declared size is checked up front; a body without one (or larger than declared) meets ENOSPC below.
  await requireDiskSpace(what, tempRoot, declared, 0);
  const directory = await mkdtemp(path.join(tempRoot, "trellis-upload-")).catch(async (error: unknown) => {
    throw isDiskFullError(error) ? await tempFolderFull(tempRoot, declared, error) : error;
  });
  const dispose = () => rm(directory, { recursive: true, force: true });
  try {
    const { files, fields } = await streamParts(request, contentType, limits, maxBody, directory);
    if (files.length === 0)
      throw new RequestError("invalid_request", 'No file: send one or more files in the field "file"', [
        { path: "file", message: "is required" },
      ]);
    return { files, metadata: parseMetadata(fields), dispose };
  } catch (error) {
    // Measured before the partial files are deleted: what the upload had written is what it lacked room beside.
    const full = isDiskFullError(error) ? await tempFolderFull(tempRoot, declared, error) : undefined;
    await dispose();
    throw full ?? error;
  }
}

/** 507 naming the temporary folder: a full temp disk is the server's to fix, and says which disk. */
async function tempFolderFull(tempRoot: string, declared: number, cause: unknown): Promise<InsufficientStorageError> {
  const { freeBytes } = await diskSpaceOf(tempRoot).catch(() => ({ freeBytes: 0 }));
  return InsufficientStorageError.of(
    {
      what: "this upload's temporary files",
      folder: tempRoot,
      freeBytes,
      neededBytes: Math.max(declared, freeBytes + 1),
      reserveBytes: 0,
    },
    cause,
  );
}

import "server-only";
import { RequestError } from "@/lib/http/errors";
import { readBodyCapped } from "@/lib/http/read-capped";
import { safeFileName } from "@/knowledge";
import { UPLOAD_LIMITS } from "./knowledge-settings";

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

export interface UploadForm {
  files: UploadedFile[];
  metadata: Record<string, unknown>;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function parseMetadata(form: FormData): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const raw = form.get("metadata");
  if (typeof raw === "string" && raw.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new RequestError("invalid_request", "The metadata field must be a JSON object", [{ path: "metadata", message: "is not valid JSON" }]);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new RequestError("invalid_request", "The metadata field must be a JSON object", [{ path: "metadata", message: "must be an object" }]);
    }
    Object.assign(metadata, parsed);
  }
  const tags = form.get("tags");
  if (typeof tags === "string" && tags.trim())
    metadata.tags = tags
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean);
  return metadata;
}

/**
 * Reads a multipart upload: every `file` field (one or more), an optional `metadata` JSON object
 * and optional comma-separated `tags`. Oversize bodies and files are refused with 413 before
 * anything is stored; names are reduced to a safe base name.
 */
export async function readUploadForm(request: Request, limits = UPLOAD_LIMITS): Promise<UploadForm> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const maxBody = limits.maxFiles * limits.maxFileBytes + 1024 * 1024;
  if (declared > maxBody) throw new RequestError("too_large", `The upload is ${megabytes(declared)}; at most ${megabytes(maxBody)} per request`);
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new RequestError("invalid_request", 'Upload files as multipart/form-data with the field "file"');
  }
  let form: FormData;
  try {
    // Read with a cap even when no Content-Length was sent (chunked bodies), then parse.
    const body = await readBodyCapped(request, maxBody, () => new RequestError("too_large", `The upload is larger than ${megabytes(maxBody)} per request`));
    form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch (error) {
    if (error instanceof RequestError) throw error;
    throw new RequestError("invalid_request", "The multipart body could not be read");
  }
  const entries = form.getAll("file");
  if (entries.length === 0)
    throw new RequestError("invalid_request", 'No file: send one or more files in the field "file"', [{ path: "file", message: "is required" }]);
  if (entries.length > limits.maxFiles) throw new RequestError("too_large", `At most ${limits.maxFiles} files per upload (got ${entries.length})`);
  const files: UploadedFile[] = [];
  for (const [index, entry] of entries.entries()) {
    if (typeof entry === "string")
      throw new RequestError("invalid_request", `file[${index}] is text, not a file`, [{ path: `file[${index}]`, message: "must be a file" }]);
    const name = safeFileName(entry.name);
    if (entry.size > limits.maxFileBytes) {
      throw new RequestError("too_large", `"${name}" is ${megabytes(entry.size)}; files may be at most ${megabytes(limits.maxFileBytes)}`, [
        { path: `file[${index}]`, message: "is too large" },
      ]);
    }
    files.push({ name, bytes: new Uint8Array(await entry.arrayBuffer()) });
  }
  return { files, metadata: parseMetadata(form) };
}

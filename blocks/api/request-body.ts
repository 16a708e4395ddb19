import "server-only";
import { BlockExecutionError } from "@/executor";
import type { ApiConfig } from "./definition";

/** A body ready to send, and the Content-Type it needs unless the user set one (multipart always sets its own). */
export interface EncodedBody {
  body: string | Uint8Array;
  contentType?: string;
}

const invalid = (message: string) => new BlockExecutionError(message, { code: "invalid_config" });

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** A file part of a multipart body: `{ filename, data, contentType? }`, `data` in base64 or a `data:` URL. */
interface FilePart {
  filename: string;
  data: string;
  contentType?: string;
}

function isFilePart(value: unknown): value is FilePart {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const part = value as Record<string, unknown>;
  return (
    typeof part.filename === "string" &&
    typeof part.data === "string" &&
    (part.contentType === undefined || typeof part.contentType === "string")
  );
}

function fileBlob(name: string, part: FilePart): Blob {
  const dataUrl = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(part.data);
  const type = part.contentType ?? (dataUrl?.[1] || "application/octet-stream");
  if (dataUrl && !dataUrl[2]) {
    try {
      return new Blob([decodeURIComponent(dataUrl[3]!)], { type });
    } catch {
      throw invalid(`body.${name}: the file's data: URL is not validly percent-encoded`);
    }
  }
  const base64 = (dataUrl ? dataUrl[3]! : part.data).replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    throw invalid(`body.${name}: a file's data must be base64 or a data: URL`);
  return new Blob([Buffer.from(base64, "base64")], { type });
}

/** The body's fields as key/value rows (form and multipart), each value one item or a list (a repeated key). */
function rowsOf(config: ApiConfig): Array<[string, unknown]> {
  const body = config.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalid(
      `With bodyType "${config.bodyType}", body must be key/value fields (an object such as {"name": "Ada"}), not ${Array.isArray(body) ? "a list" : typeof body}`,
    );
  }
  return Object.entries(body as Record<string, unknown>).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((item) => [key, item] as [string, unknown]) : [[key, value]],
  );
}

function formBody(config: ApiConfig): EncodedBody {
  const params = new URLSearchParams();
  for (const [key, value] of rowsOf(config)) {
    if (value === null || value === undefined) continue;
    if (!isScalar(value))
      throw invalid(
        `body.${key}: a form field must be text, a number or true/false; use bodyType "json" or "multipart" for nested data`,
      );
    params.append(key, String(value));
  }
  return { body: params.toString(), contentType: "application/x-www-form-urlencoded" };
}

/** Encoded with the platform's FormData, which writes the parts and picks the boundary the Content-Type names. */
async function multipartBody(config: ApiConfig): Promise<EncodedBody> {
  const form = new FormData();
  for (const [key, value] of rowsOf(config)) {
    if (value === null || value === undefined) continue;
    if (isScalar(value)) form.append(key, String(value));
    else if (isFilePart(value)) form.append(key, fileBlob(key, value), value.filename);
    else
      throw invalid(
        `body.${key}: a multipart field must be text, a number, true/false or a file { filename, data (base64 or a data: URL), contentType? }`,
      );
  }
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type") ?? undefined,
  };
}

/** The body as text; the inspector's box stores text that parses as JSON as a value, so a value is written back as its JSON text. */
function textBody(config: ApiConfig): EncodedBody {
  const text = isScalar(config.body) ? String(config.body) : JSON.stringify(config.body);
  return { body: text, contentType: "text/plain; charset=utf-8" };
}

/**
 * The request body by `bodyType`: `json` (the default: an object or list as JSON; a string as
 * written, as before bodyType existed), `form` (URL-encoded fields), `multipart` (form-data
 * fields and files) or `text`. None for an empty body; a GET or HEAD with one is refused.
 */
export async function encodeApiBody(config: ApiConfig): Promise<EncodedBody | undefined> {
  if (config.body === undefined || config.body === null || config.body === "") return undefined;
  if (config.method === "GET" || config.method === "HEAD") {
    throw invalid(`A ${config.method} request cannot have a body; use POST, PUT or PATCH, or remove the body`);
  }
  switch (config.bodyType) {
    case "form":
      return formBody(config);
    case "multipart":
      return multipartBody(config);
    case "text":
      return textBody(config);
    case "json":
      return typeof config.body === "string"
        ? { body: config.body }
        : { body: JSON.stringify(config.body), contentType: "application/json" };
  }
}

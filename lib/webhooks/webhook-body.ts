import "server-only";
import { RESERVED_NAME_MESSAGE, isReservedName, WEBHOOK_MAX_BODY_BYTES } from "@/contract";
import { RequestError } from "@/lib/http/errors";
import { readBodyCapped } from "@/lib/http/read-capped";
import { parseUntrustedJson } from "@/lib/http/read-json";

/** The media types a hook reads, as a refusal names them. */
const ACCEPTED = "application/json, application/x-www-form-urlencoded or multipart/form-data";
const LIMIT_TEXT = `${WEBHOOK_MAX_BODY_BYTES / 1024 / 1024} MB`;

function tooLarge(received: number): RequestError {
  return new RequestError(
    "too_large",
    `The webhook body is over the ${LIMIT_TEXT} limit (${WEBHOOK_MAX_BODY_BYTES} bytes).`,
    [{ path: "", message: `at least ${received} bytes received` }],
  );
}

/**
 * The raw body, read only up to the limit: the signature is over these exact bytes, so they are
 * read before anything is parsed. A declared Content-Length over the limit is refused unread.
 */
export async function readWebhookBody(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > WEBHOOK_MAX_BODY_BYTES) throw tooLarge(declared);
  return readBodyCapped(request, WEBHOOK_MAX_BODY_BYTES, tooLarge);
}

function utf8(body: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new RequestError("invalid_request", `The ${what} is not valid UTF-8 text.`);
  }
}

function refuseReserved(names: Iterable<string>, where: string): void {
  for (const name of names) {
    if (isReservedName(name))
      throw new RequestError("invalid_request", `The ${where} "${name}" ${RESERVED_NAME_MESSAGE}.`, [
        { path: name, message: RESERVED_NAME_MESSAGE },
      ]);
  }
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

function fromJson(body: Uint8Array, charset: string | undefined): Record<string, unknown> {
  if (charset !== undefined && charset !== "utf-8")
    throw new RequestError("unsupported_media_type", `The webhook body is JSON in ${charset}; send it as UTF-8.`);
  const text = utf8(body, "webhook body");
  if (text.trim() === "") return {};
  // Too deep, or with a __proto__ key: refused before it is parsed.
  const value = parseUntrustedJson(text, { subject: "The webhook body" });
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new RequestError(
      "invalid_request",
      `The webhook body must be a JSON object, whose fields become the run's inputs; got ${describeJson(value)}.`,
      [{ path: "", message: "must be an object" }],
    );
  }
  refuseReserved(Object.keys(value), "field");
  return value as Record<string, unknown>;
}

/** Form fields by name; a name sent more than once gives the list of its values. */
function collect(entries: Iterable<[string, string]>): Record<string, unknown> {
  const values = new Map<string, string[]>();
  for (const [name, value] of entries) values.set(name, [...(values.get(name) ?? []), value]);
  refuseReserved(values.keys(), "form field");
  return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? list[0] : list]));
}

function fromUrlEncoded(body: Uint8Array): Record<string, unknown> {
  return collect(new URLSearchParams(utf8(body, "form")));
}

async function fromMultipart(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    // The body is already in memory and within the limit, so the platform's parser reads it.
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new RequestError("invalid_request", "The multipart form could not be read: check its boundary and parts.");
  }
  const entries: Array<[string, string]> = [];
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") {
      throw new RequestError("invalid_request", `The form field "${name}" is a file; a hook takes text fields only.`, [
        { path: name, message: "is a file" },
      ]);
    }
    entries.push([name, value]);
  }
  return collect(entries);
}

/**
 * A hook's body as the run's input: a JSON object's fields, or a form's text fields (URL-encoded
 * or multipart), by name. An empty body is no input. Anything else is refused naming what is wrong:
 * 415 for another media type, 400 for a body that is not an object or not readable.
 */
export async function webhookInputOf(
  body: Uint8Array<ArrayBuffer>,
  contentType: string | null,
): Promise<Record<string, unknown>> {
  if (contentType === null || contentType.trim() === "") {
    if (body.byteLength === 0) return {};
    throw new RequestError("unsupported_media_type", `The webhook body has no Content-Type; send ${ACCEPTED}.`);
  }
  const [essence = "", ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((parameter) => parameter.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  if (essence === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(essence))
    return fromJson(body, charset);
  if (essence === "application/x-www-form-urlencoded") return fromUrlEncoded(body);
  if (essence === "multipart/form-data") return fromMultipart(body, contentType);
  throw new RequestError("unsupported_media_type", `The webhook body is ${essence || "of no type"}; send ${ACCEPTED}.`);
}

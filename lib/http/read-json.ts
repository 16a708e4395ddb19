import "server-only";
import type { z } from "zod";
import { RequestError } from "./errors";
import { describeJsonHazard, findJsonHazard, zodIssues } from "@/contract";
import { describeIssues } from "./issues";
import { readBodyCapped } from "./read-capped";

export const MAX_WORKFLOW_BYTES = 5 * 1024 * 1024;

/**
 * Reads a JSON body with a hard size cap. The declared Content-Length is checked first so an
 * oversized upload is refused before it is read, then the bytes actually read are counted.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  options: { emptyAs?: unknown } = {},
): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared, maxBytes);
  const text = new TextDecoder().decode(await readBodyCapped(request, maxBytes, (size) => tooLarge(size, maxBytes)));
  if (text.trim() === "" && "emptyAs" in options) return options.emptyAs;
  if (text.trim() === "") throw new RequestError("invalid_json", "The request body is empty; send a JSON document.");
  return parseUntrustedJson(text, { subject: "The request body" });
}

export interface UntrustedJsonOptions {
  /** Names the text in the refusal: "The metadata field" gives "The metadata field is not valid JSON: ...". */
  subject: string;
  /** Where the text sits in the request (a form field's name), put before the paths of the details. */
  path?: string;
}

/**
 * Parses JSON a caller sent, for every place that reads it (request bodies here, form fields such
 * as an upload's `metadata`): refused with 400 when it is nested deeper than MAX_JSON_DEPTH
 * (`invalid_json`) or uses a `__proto__` key (`invalid_request`), both found by a linear scan
 * before JSON.parse, so nothing after it can recurse past the stack's end; then 400
 * `invalid_json` when it does not parse.
 */
export function parseUntrustedJson(text: string, { subject, path = "" }: UntrustedJsonOptions): unknown {
  const hazard = findJsonHazard(text, { refusePrototypeKeys: true });
  if (hazard) {
    const at =
      path && hazard.path ? `${path}${hazard.path.startsWith("[") ? "" : "."}${hazard.path}` : path || hazard.path;
    const message = `${subject} ${describeJsonHazard({ ...hazard, path: at })}.`;
    throw new RequestError(hazard.kind === "too_deep" ? "invalid_json" : "invalid_request", message, [
      { path: at, message: describeJsonHazard({ ...hazard, path: "" }) },
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : "not JSON";
    throw new RequestError(
      "invalid_json",
      `${subject} is not valid JSON: ${reason}`,
      path ? [{ path, message: "is not valid JSON" }] : undefined,
    );
  }
}

export interface JsonRequestOptions {
  /** Names the body in the refusal: "The search" gives "The search is invalid: topK: ...". */
  subject: string;
  maxBytes: number;
  /** What an empty body stands for, when every field of the schema is optional. */
  emptyAs?: unknown;
}

/**
 * Every JSON request body goes through here: read with a size cap (413), parsed as JSON within
 * the depth limit (400 invalid_json, see parseUntrustedJson), then checked against the contract's schema, answering 400 invalid_request with
 * one detail per offending field.
 */
export async function readJsonRequest<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  options: JsonRequestOptions,
): Promise<z.output<Schema>> {
  const body = await readJsonBody(request, options.maxBytes, "emptyAs" in options ? { emptyAs: options.emptyAs } : {});
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error);
  throw new RequestError("invalid_request", describeIssues(options.subject, issues), issues);
}

function tooLarge(size: number, maxBytes: number): RequestError {
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return new RequestError(
    "too_large",
    `The request body is ${size > maxBytes * 10 ? "far " : ""}over the ${megabytes(maxBytes)} MB limit.`,
    [{ path: "", message: `at least ${megabytes(size)} MB received` }],
  );
}

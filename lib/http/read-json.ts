import "server-only";
import type { z } from "zod";
import { RequestError } from "./errors";
import { zodIssues } from "@/contract";
import { describeIssues } from "./issues";
import { readBodyCapped } from "./read-capped";

export const MAX_WORKFLOW_BYTES = 5 * 1024 * 1024;

/**
 * Reads a JSON body with a hard size cap. The declared Content-Length is checked first so an
 * oversized upload is refused before it is read, then the bytes actually read are counted.
 */
export async function readJsonBody(request: Request, maxBytes: number, options: { emptyAs?: unknown } = {}): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared, maxBytes);
  const text = new TextDecoder().decode(await readBodyCapped(request, maxBytes, (size) => tooLarge(size, maxBytes)));
  if (text.trim() === "" && "emptyAs" in options) return options.emptyAs;
  if (text.trim() === "") throw new RequestError("invalid_json", "The request body is empty; send a JSON document.");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : "not JSON";
    throw new RequestError("invalid_json", `The request body is not valid JSON: ${reason}`);
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
 * Every JSON request body goes through here: read with a size cap (413), parsed as JSON (400
 * invalid_json), then checked against the contract's schema, answering 400 invalid_request with
 * one detail per offending field.
 */
export async function readJsonRequest<Schema extends z.ZodType>(request: Request, schema: Schema, options: JsonRequestOptions): Promise<z.output<Schema>> {
  const body = await readJsonBody(request, options.maxBytes, "emptyAs" in options ? { emptyAs: options.emptyAs } : {});
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error);
  throw new RequestError("invalid_request", describeIssues(options.subject, issues), issues);
}

function tooLarge(size: number, maxBytes: number): RequestError {
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  return new RequestError("too_large", `The request body is ${size > maxBytes * 10 ? "far " : ""}over the ${megabytes(maxBytes)} MB limit.`, [
    { path: "", message: `at least ${megabytes(size)} MB received` },
  ]);
}

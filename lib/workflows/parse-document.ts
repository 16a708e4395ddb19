import "server-only";
import {
  RESERVED_HEADER_MESSAGE,
  RESERVED_NAME_MESSAGE,
  workflowDocumentSchema,
  workflowVersionSchema,
  type IssueDetail,
  type WorkflowDocument,
  zodIssues,
  countOf,
} from "@/contract";
import { GraphValidationError, validateWorkflow } from "@/executor";
import { lookupBlockType } from "@/blocks";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";

export const MAX_BLOCKS = 2_000;
export const MAX_EDGES = 10_000;

/**
 * Problems a draft may have while someone is still building it: a block whose config is not
 * finished (a missing prompt, a reference to a block not yet added) or no start block yet. The
 * document is stored and the problems come back as `issues`; a run refuses it with the same
 * messages. Everything else (shape, ids, names, types, edges, cycles, size) is refused at once, a
 * reserved name or header inside a config too: it is a choice to undo, not a part still to fill
 * in, and storing it would only put the refusal off until the first run.
 */
function isDraftIssue(issue: IssueDetail): boolean {
  if (issue.message.endsWith(RESERVED_NAME_MESSAGE) || issue.message.endsWith(RESERVED_HEADER_MESSAGE)) return false;
  return (
    /^blocks\[\d+\]\.config(\.|\[|$)/.test(issue.path) || issue.message === "The workflow needs one enabled start block"
  );
}

export interface ParsedWorkflow {
  document: WorkflowDocument;
  /** Unfinished parts, shown on the canvas and refused by a run; the document is stored anyway. */
  issues: IssueDetail[];
}

/**
 * Turns an untrusted body into a workflow document, or throws an error whose details point at
 * each offending part. Shape first (zod), then size, then the graph rules the executor enforces,
 * so the API and a run refuse the same documents with the same messages.
 */
export function parseWorkflowDocument(body: unknown): ParsedWorkflow {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new GraphValidationError("The workflow must be a JSON object.", [
      { path: "", message: "expected an object" },
    ]);
  }
  const record = body as Record<string, unknown>;
  if (Array.isArray(record.blocks) && record.blocks.length > MAX_BLOCKS) {
    throw new RequestError(
      "too_large",
      `The workflow has ${countOf(record.blocks.length, "block")}; the limit is ${MAX_BLOCKS.toLocaleString("en-US")}.`,
      [{ path: "blocks", message: `${record.blocks.length} blocks, limit ${MAX_BLOCKS}` }],
    );
  }
  if (Array.isArray(record.edges) && record.edges.length > MAX_EDGES) {
    throw new RequestError(
      "too_large",
      `The workflow has ${countOf(record.edges.length, "edge")}; the limit is ${MAX_EDGES.toLocaleString("en-US")}.`,
      [{ path: "edges", message: `${record.edges.length} edges, limit ${MAX_EDGES}` }],
    );
  }
  const parsed = workflowDocumentSchema.safeParse(body);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw new GraphValidationError(describeIssues("The workflow", issues), issues);
  }
  const graphIssues = validateWorkflow(parsed.data, lookupBlockType);
  const blocking = graphIssues.filter((issue) => !isDraftIssue(issue));
  if (blocking.length > 0)
    throw new GraphValidationError(describeIssues("The workflow", blocking, { withPaths: false }), blocking);
  return { document: parsed.data, issues: graphIssues.filter(isDraftIssue) };
}

/** A PUT body: a document plus the version it was based on. */
export function parseWorkflowUpdate(body: unknown): ParsedWorkflow & { version: number } {
  const version = workflowVersionSchema.safeParse(body);
  if (!version.success) {
    throw new RequestError(
      "invalid_request",
      "An update must include the `version` it was based on (a positive integer).",
      [{ path: "version", message: "expected a positive integer" }],
    );
  }
  return { ...parseWorkflowDocument(body), version: version.data.version };
}

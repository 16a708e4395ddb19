import "server-only";
import {
  normalizeBlockName,
  type CopilotChange,
  type CopilotRefusal,
  type IssueDetail,
  type WorkflowBlock,
  type WorkflowDocument,
} from "@/contract";
import { isTrellisError } from "@/executor";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";

/**
 * A copy of a draft the copilot edits, one checked edit at a time. Each edit is made on a copy of
 * the current document and kept only when the document passes what saving checks: the shape and
 * graph rules (connections, handles, cycles, config schemas, references) of parseWorkflowDocument,
 * the stored things it names (`checkStored`, as the workflow service checks on save), and no new
 * unfinished config. A refused edit changes nothing; its reason goes back to the model.
 */

/** An edit the model asked for that cannot be made as asked (an unknown block, say): the reason is the message. */
export class EditRefused extends Error {}

/** Throws (with a message for the model) when the document names a stored thing the workspace does not have. */
export type StoredCheck = (document: WorkflowDocument) => Promise<void>;

export type EditOutcome = { ok: true; summary: string } | { ok: false; reason: string };

const MAX_REASON_DETAILS = 5;

function reasonOf(error: unknown): string {
  if (error instanceof EditRefused) return error.message;
  if (isTrellisError(error)) {
    const details = (error.details ?? []) as IssueDetail[];
    const listed = details
      .filter((detail) => !error.message.includes(detail.message))
      .slice(0, MAX_REASON_DETAILS)
      .map((detail) => (detail.path ? `${detail.path}: ${detail.message}` : detail.message));
    return [error.message, ...listed].join("\n");
  }
  throw error;
}

export class DraftEditor {
  private current: WorkflowDocument;
  private issueMessages: Set<string>;
  private queue: Promise<unknown> = Promise.resolve();
  readonly changes: CopilotChange[] = [];
  readonly refused: CopilotRefusal[] = [];

  constructor(
    document: WorkflowDocument,
    private readonly checkStored: StoredCheck,
  ) {
    this.current = structuredClone(document);
    this.issueMessages = new Set(unfinishedParts(document).map((issue) => issue.message));
  }

  get document(): WorkflowDocument {
    return this.current;
  }

  /**
   * Makes `edit` on a copy and keeps it if the copy passes the save checks; `edit` returns its
   * summary. The AI SDK runs a step's tool calls at once: edits are queued, so each is made on the
   * document the ones before it left, in the order the model called them.
   */
  apply(tool: string, edit: (copy: WorkflowDocument) => string): Promise<EditOutcome> {
    const outcome = this.queue.then(() => this.applyNow(tool, edit));
    this.queue = outcome;
    return outcome;
  }

  private async applyNow(tool: string, edit: (copy: WorkflowDocument) => string): Promise<EditOutcome> {
    try {
      const copy = structuredClone(this.current);
      const summary = edit(copy);
      const { document, issues } = parseWorkflowDocument(copy);
      const added = issues.filter((issue) => !this.issueMessages.has(issue.message));
      if (added.length > 0)
        throw new EditRefused(
          `The edit leaves a block unfinished: ${added.map((issue) => issue.message).join("; ")}. Give the whole config in one call.`,
        );
      await this.checkStored(document);
      this.current = document;
      this.issueMessages = new Set(issues.map((issue) => issue.message));
      this.changes.push({ tool, summary });
      return { ok: true, summary };
    } catch (error) {
      const reason = reasonOf(error);
      this.refused.push({ tool, reason });
      return { ok: false, reason };
    }
  }
}

/** The draft-issues of a document (an unfinished config, no start block), or none for one that would be refused outright. */
function unfinishedParts(document: WorkflowDocument): IssueDetail[] {
  try {
    return parseWorkflowDocument(document).issues;
  } catch {
    return [];
  }
}

/** A block of the document by id, or by name as references match names (case and spaces ignored). */
export function findBlock(document: WorkflowDocument, idOrName: string): WorkflowBlock {
  const byId = document.blocks.find((block) => block.id === idOrName);
  if (byId) return byId;
  const wanted = normalizeBlockName(idOrName);
  const byName = document.blocks.find((block) => normalizeBlockName(block.name) === wanted);
  if (byName) return byName;
  const known = document.blocks.map((block) => `${block.id} (${block.name})`).join(", ") || "none";
  throw new EditRefused(`There is no block "${idOrName}". The blocks are: ${known}.`);
}

/** An id from a name (`Support Agent` -> `support_agent`), made unique in the document. */
export function freshBlockId(document: WorkflowDocument, name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, 48) || "block";
  const taken = new Set(document.blocks.map((block) => block.id));
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base}_${suffix}`)) return `${base}_${suffix}`;
}

/** An edge id unique in the document. */
export function freshEdgeId(document: WorkflowDocument, source: string, target: string, handle: string): string {
  const base = handle === "out" ? `e_${source}_${target}` : `e_${source}_${handle}_${target}`;
  const taken = new Set(document.edges.map((edge) => edge.id));
  if (!taken.has(base)) return base.slice(0, 128);
  for (let suffix = 2; ; suffix++) if (!taken.has(`${base}_${suffix}`)) return `${base}_${suffix}`.slice(0, 128);
}

/** Where a new block goes when the model gives no position: right of the rightmost block. */
export function nextPosition(document: WorkflowDocument): { x: number; y: number } {
  if (document.blocks.length === 0) return { x: 0, y: 160 };
  const right = Math.max(...document.blocks.map((block) => block.position.x));
  return { x: right + 260, y: 160 };
}

type Segment = string | number;

/** `branches[0].expression` or `inputs.0.name` as segments. */
export function fieldPath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of path.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (part === "")
      throw new EditRefused(`"${path}" is not a field path (write it as prompt, inputs[0].name or data.answer).`);
    segments.push(/^\d+$/.test(part) ? Number(part) : part);
  }
  if (segments[0] === "config") segments.shift();
  if (segments.length === 0) throw new EditRefused("Name the config field to set.");
  return segments;
}

/** Sets (or with `undefined`, removes) the value at `path` inside `target`, making objects and arrays on the way. */
export function setAt(target: Record<string, unknown>, path: Segment[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  for (let index = 0; index < path.length - 1; index++) {
    const key = path[index]!;
    const next = node[key];
    if (next === null || typeof next !== "object") node[key] = typeof path[index + 1] === "number" ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(node) && typeof last === "number") node.splice(last, 1);
    else delete node[last];
  } else node[last] = value;
}

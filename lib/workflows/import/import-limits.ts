import "server-only";
import { countOf, type WorkflowDocumentInput } from "@/contract";
import { RequestError } from "@/lib/http/errors";
import { MAX_WORKFLOW_BYTES } from "@/lib/http/read-json";
import { MAX_BLOCKS, MAX_EDGES } from "../parse-document";
import { flowSteps } from "./anythingllm-flow";
import { detectFormat } from "./detect-format";
import { simBlocksToImport } from "./sim-export";

const ANYTHINGLLM_BLOCK_STEPS = new Set(["apiCall", "llmInstruction", "webScraping"]);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function tooManyBlocks(count: number, what: string): RequestError {
  return new RequestError(
    "too_large",
    `The file would make a workflow of at least ${countOf(count, "block")} (${what}); the limit is ${MAX_BLOCKS.toLocaleString("en-US")}.`,
    [{ path: "file", message: `at least ${count} blocks, limit ${MAX_BLOCKS}` }],
  );
}

/**
 * The blocks a file will make at the least, counted before converting (one pass over its top
 * level): each MCP-bridge agent is an Agent block, each AnythingLLM step of a mapped type a
 * block, each Sim block of a known type a block, plus the start. Null for a file of no known
 * format (convertFile answers that 400).
 */
export function minimumBlocks(file: unknown): { count: number; what: string } | null {
  const format = detectFormat(file);
  if (!format) return null;
  const record = file as Record<string, unknown>;
  if (format === "trellis") return { count: (record.blocks as unknown[]).length, what: "its blocks" };
  if (format === "mcp-bridge-workflow")
    return { count: (record.agents as unknown[]).length + 1, what: "one per agent and the start" };
  if (format === "anythingllm-flow") {
    const steps = flowSteps(record) ?? [];
    const count =
      1 + steps.filter((step) => ANYTHINGLLM_BLOCK_STEPS.has(String((step as { type?: unknown }).type))).length;
    return { count, what: "one per API, LLM and web step and the start" };
  }
  return { count: simBlocksToImport(record), what: "one per Sim block of a known type" };
}

/**
 * A file past MAX_BLOCKS is refused with 413 before any converter works on it. The request body
 * itself is capped at MAX_WORKFLOW_BYTES before it is parsed.
 */
export function refuseOversizedFile(file: unknown): void {
  const minimum = minimumBlocks(file);
  if (minimum && minimum.count > MAX_BLOCKS) throw tooManyBlocks(minimum.count, minimum.what);
}

/**
 * The converted document against the limits a saved workflow has (POST /api/workflows): its JSON
 * within MAX_WORKFLOW_BYTES, its blocks and edges within MAX_BLOCKS and MAX_EDGES. 413 naming the
 * limit, before anything is stored.
 */
export function refuseOversizedDocument(document: WorkflowDocumentInput): void {
  const blocks = document.blocks?.length ?? 0;
  if (blocks > MAX_BLOCKS) throw tooManyBlocks(blocks, "as converted");
  const edges = document.edges?.length ?? 0;
  if (edges > MAX_EDGES)
    throw new RequestError(
      "too_large",
      `The file converts to a workflow of ${countOf(edges, "edge")}; the limit is ${MAX_EDGES.toLocaleString("en-US")}.`,
      [{ path: "file", message: `${edges} edges, limit ${MAX_EDGES}` }],
    );
  const bytes = Buffer.byteLength(JSON.stringify(document));
  if (bytes > MAX_WORKFLOW_BYTES)
    throw new RequestError(
      "too_large",
      `The file converts to a workflow document of ${megabytes(bytes)}; the limit is ${megabytes(MAX_WORKFLOW_BYTES)} (the size of a saved workflow).`,
      [{ path: "file", message: `${bytes} bytes as converted, limit ${MAX_WORKFLOW_BYTES}` }],
    );
}

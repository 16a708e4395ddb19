import { z } from "zod";
import { withoutReservedKeys } from "./reserved-names";
import { blockTestingSchema } from "./test-samples";
import { workflowBudgetSchema } from "./budgets";

/**
 * The workflow document of the public contract (docs/CONTRACT.md section 1), checked for shape only.
 * Graph rules (dangling edges, cycles, handles, block configs) live in the DAGBuilder, because they
 * need the block registry and the whole document at once.
 */

export const BLOCK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

export const blockSchema = z.object({
  id: z.string().regex(BLOCK_ID_PATTERN, "must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -"),
  type: z.string().min(1, "is required"),
  name: z.string().trim().min(1, "is required").max(200),
  position: positionSchema.default({ x: 0, y: 0 }),
  parentId: z.string().nullable().optional().default(null),
  enabled: z.boolean().optional().default(true),
  config: z.record(z.string(), z.unknown()).optional().default({}),
  /**
   * Retry policy of the block's handler (off when absent): `attempts` in total, the first included;
   * the wait before retry n is `backoffMs * 2^(n-1)`.
   */
  retry: z
    .object({
      attempts: z.number().int().min(1).max(10),
      backoffMs: z.number().int().min(0).max(60_000).default(1_000),
    })
    .optional(),
  /** Time limit of one attempt of the block's handler, in milliseconds (none when absent). */
  timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  /** Size of a loop or parallel container on the canvas; ignored by the executor. */
  size: z.object({ width: z.number().positive(), height: z.number().positive() }).optional(),
  /** Extension: what a test run answers instead of this block's side effects (test-samples.ts); real runs ignore it. */
  testing: blockTestingSchema.optional(),
});

/** The highest `maxRetries` an edge may carry: a retry cycle is for a few more tries, not a loop over data. */
export const MAX_EDGE_RETRIES = 100;

/** The handle a retry edge's source leaves by when the cycle has used all its retries. */
export const RETRIES_EXHAUSTED_HANDLE = "retriesExhausted";

export const edgeSchema = z.object({
  id: z.string().min(1).max(128),
  source: z.string().min(1),
  target: z.string().min(1),
  sourceHandle: z.string().nullable().optional(),
  targetHandle: z.string().nullable().optional(),
  /**
   * Extension: an expression of the safe expression language over the source block's output, bound
   * to `output` (`output.status == 200`). The edge is taken only when its handle is taken and the
   * condition holds; blank means none.
   */
  condition: z.string().max(2_000).optional(),
  /**
   * Extension (retry cycles): an edge going back to an earlier block of its scope, taken at most this
   * many times per run of the scope; past the cap its source block fails, or leaves by its
   * `retriesExhausted` handle when one is connected. Only an edge with a cap may close a cycle.
   */
  maxRetries: z
    .number()
    .int()
    .min(1, "must be at least 1")
    .max(MAX_EDGE_RETRIES, `must be at most ${MAX_EDGE_RETRIES}`)
    .optional(),
});

export const workflowDocumentSchema = z.object({
  name: z.string().trim().min(1, "is required").max(200),
  description: z.string().max(10_000).optional().default(""),
  variables: withoutReservedKeys(z.record(z.string(), z.unknown())).optional().default({}),
  blocks: z.array(blockSchema).default([]),
  edges: z.array(edgeSchema).default([]),
  /** How every run of the workflow behaves. */
  settings: z
    .object({
      /** A run's time limit in milliseconds, not counting time paused for a person (the server's TRELLIS_RUN_TIMEOUT_MS when absent). */
      timeoutMs: z
        .number()
        .int()
        .min(1_000, "must be at least 1000 (one second)")
        .max(604_800_000, "must be at most 604800000 (a week)")
        .optional(),
      /** A cap in US dollars on what one run may spend on models (contract section 12). */
      budget: workflowBudgetSchema.optional(),
      /** A suite (its id) whose gate a deploy must pass (contract section 13). */
      requireEvaluation: z.string().min(1).max(100).optional(),
    })
    .optional(),
});

export type WorkflowBlock = z.infer<typeof blockSchema>;
export type WorkflowEdge = z.infer<typeof edgeSchema>;
export type WorkflowDocument = z.infer<typeof workflowDocumentSchema>;
/** What a caller may send: defaults not yet applied. */
export type WorkflowDocumentInput = z.input<typeof workflowDocumentSchema>;

/** A handle name with no `sourceHandle` means `out`. */
export function edgeHandle(edge: Pick<WorkflowEdge, "sourceHandle">): string {
  return edge.sourceHandle ?? "out";
}

/** Names match ignoring case and spaces (docs/CONTRACT.md section 2). */
export function normalizeBlockName(name: string): string {
  return name.replace(/\s+/g, "").toLowerCase();
}

import type { WorkflowBlock, WorkflowEdge } from "@/contract";
import type { BlockTypeInfo } from "./block-type";
import type { EdgeCondition } from "./edge-condition";

/** A workflow's blocks and edges as the structural checks see them (workflow-analysis.ts); the edge rules judge them too. */

export interface BlockEntry {
  block: WorkflowBlock;
  index: number;
  info: BlockTypeInfo | undefined;
  /** Enabled, and every container around it enabled too. */
  active: boolean;
  normalizedName: string;
}

export interface EdgeEntry {
  edge: WorkflowEdge;
  index: number;
  source: BlockEntry;
  target: BlockEntry;
  handle: string;
  /** `flow` between blocks of one scope, `body` from a container into it, `iterationEnd` from inside a container back to it. */
  kind: "flow" | "body" | "iterationEnd";
  /** The edge's condition over its source's output, parsed; null when it has none. */
  condition: EdgeCondition | null;
  /** A retry edge's cap (`maxRetries`): the edge may go back to an earlier block (retry-cycles.ts); null for other edges. */
  maxRetries: number | null;
}

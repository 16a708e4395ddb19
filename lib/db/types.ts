import type { WorkflowDocument } from "@/executor/document";
import type { EventError, RunEvent } from "@/executor/events";
import type { Cost, TokenCounts } from "@/executor/usage";

/** Plain objects the database layer returns: no Prisma types, dates as ISO 8601 strings. */

export const RUN_STATUSES = ["queued", "running", "paused", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The stored workflow of the contract: `{ id, version, ...document, createdAt, updatedAt }`. */
export type StoredWorkflow = WorkflowDocument & {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface RunSummary {
  id: string;
  workflowId: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  tokens: TokenCounts;
  /** Null when some part of the run had no known price (then `unpriced` is true). */
  cost: Cost | null;
  unpriced: boolean;
  /** Some tokens were counted locally because a provider reported none. */
  estimated: boolean;
}

export interface StoredRun extends RunSummary {
  input: Record<string, unknown>;
  output: unknown;
  error: EventError | null;
}

/** A stored run event; `seq` is its SSE id, counted per run from 1. */
export interface StoredRunEvent {
  seq: number;
  event: RunEvent;
  createdAt: string;
}

/** What listing secrets returns: never the value. */
export interface SecretSummary {
  name: string;
  createdAt: string;
  updatedAt: string;
}

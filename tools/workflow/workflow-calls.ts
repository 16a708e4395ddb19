import { TrellisError } from "@/executor";
import type { Usage } from "@/contract";

/** A workflow an agent may call, as the workflow tool needs to know it. */
export interface WorkflowToolTarget {
  id: string;
  name: string;
  description?: string;
  /** The start block's inputs: they become the tool's parameters. */
  inputs: ReadonlyArray<{ name: string; type?: string; description?: string; default?: unknown }>;
}

/** Which document a child run executes: the workflow's draft as saved now, or its active deployment. */
export type WorkflowCallTarget = "draft" | "deployment";

export interface RunWorkflowRequest {
  workflowId: string;
  /** Default `draft` (what a workflow tool runs). */
  target?: WorkflowCallTarget;
  input: Record<string, unknown>;
  /** The child run's depth: the caller's depth + 1. */
  depth: number;
  /** The caller's signal: cancelling the calling run cancels the child run. */
  signal: AbortSignal;
  parentRunId: string;
}

export interface WorkflowRunResult {
  runId: string;
  status: "succeeded" | "failed" | "cancelled";
  output: unknown;
  error: { code: string; message: string } | null;
  usage: Usage;
}

/** Starts a workflow as a stored, inspectable run and waits for its end. Enforces depth and cycles. */
export type RunWorkflowFunction = (request: RunWorkflowRequest) => Promise<WorkflowRunResult>;

/**
 * What calling another workflow needs from the server, shared by the workflow tool and the
 * Workflow block (lib/runtime/workflow-call-runtime.ts supplies it per workspace).
 */
export interface WorkflowCalls {
  /** The target's name, description and start inputs. Throws for an unknown workflow. */
  describeWorkflow(workflowId: string): Promise<WorkflowToolTarget>;
  /** Runs the target as a child run (stored, inspectable) and waits for it. */
  runWorkflow: RunWorkflowFunction;
  /** The workflows that led to a run, outermost first, the run's own workflow last. */
  callChain(runId: string, workflowId: string): Promise<WorkflowCallLink[]> | WorkflowCallLink[];
  maxDepth?: number;
}

/** One link of the call chain: the runs (outermost first) that led to the caller, the caller last. */
export interface WorkflowCallLink {
  workflowId: string;
  workflowName: string;
}

export const DEFAULT_MAX_WORKFLOW_DEPTH = 3;
export const MAX_WORKFLOW_DEPTH_ENV = "TRELLIS_MAX_WORKFLOW_DEPTH";

export class WorkflowRecursionError extends TrellisError {
  constructor(code: "workflow_cycle" | "workflow_depth", message: string) {
    super(code, message);
  }
}

/** `TRELLIS_MAX_WORKFLOW_DEPTH`, a whole number from 1; anything else is a clear error. */
export function maxWorkflowDepthFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_MAX_WORKFLOW_DEPTH;
  const depth = Number(value);
  if (!Number.isInteger(depth) || depth < 1) throw new Error(`${MAX_WORKFLOW_DEPTH_ENV} must be a whole number of at least 1; got "${value}"`);
  return depth;
}

const label = (link: WorkflowCallLink) => `"${link.workflowName}"`;

/**
 * Refuses a call that closes a cycle (the target already runs somewhere up the chain, the
 * caller included) or goes deeper than `maxDepth` nested workflow runs.
 */
export function checkWorkflowCall(chain: readonly WorkflowCallLink[], target: WorkflowCallLink, callerDepth: number, maxDepth: number): void {
  const path = [...chain, target].map(label).join(" → ");
  if (chain.some((link) => link.workflowId === target.workflowId)) {
    throw new WorkflowRecursionError(
      "workflow_cycle",
      `Workflow ${label(target)} is already running in this call chain: ${path}. A workflow cannot call itself (as a tool or a Workflow block), directly or through other workflows`,
    );
  }
  if (callerDepth + 1 > maxDepth) {
    throw new WorkflowRecursionError(
      "workflow_depth",
      `Calling workflow ${label(target)} would nest workflows ${callerDepth + 1} deep (${path}); the limit is ${maxDepth} (${MAX_WORKFLOW_DEPTH_ENV})`,
    );
  }
}

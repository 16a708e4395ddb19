import { isErrorCode, type Usage } from "@/contract";
import { BlockExecutionError, isTrellisError, TrellisError, type BlockBudget } from "@/core";

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
  /** The calling block's budget: the child run's model calls count against the caller's caps too. */
  budget?: BlockBudget;
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

/**
 * The called workflow as `describeWorkflow` knows it. Only "not in this workspace" becomes the
 * caller's own error (`notFound`, given the store's message); anything else (the database down)
 * passes unchanged, so it is not mistaken for a deleted workflow.
 */
export async function describeCalledWorkflow(
  workflows: WorkflowCalls,
  workflowId: string,
  notFound: (reason: string) => TrellisError,
): Promise<WorkflowToolTarget> {
  try {
    return await workflows.describeWorkflow(workflowId);
  } catch (error) {
    if (isTrellisError(error) && error.code === "not_found") throw notFound(error.message);
    throw error;
  }
}

/**
 * A child run that did not succeed, as its caller's failure: the child's message and code (one the
 * caller may route on), the run to open (`partialOutput`, so the failed span links to it) and,
 * when the caller counts it on the error (`spent`), what the child spent.
 */
export function childRunFailure(
  target: Pick<WorkflowToolTarget, "id" | "name">,
  result: WorkflowRunResult,
  spent?: Usage,
): BlockExecutionError {
  const reason = result.error ? `: ${result.error.message}` : "";
  return new BlockExecutionError(
    `Workflow "${target.name}" ${result.status === "cancelled" ? "was cancelled" : "failed"}${reason} (run ${result.runId})`,
    {
      code: result.error && isErrorCode(result.error.code) ? result.error.code : "workflow_failed",
      partialOutput: { runId: result.runId, workflowId: target.id },
      ...(spent ? { spent } : {}),
    },
  );
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
  if (!Number.isInteger(depth) || depth < 1)
    throw new Error(`${MAX_WORKFLOW_DEPTH_ENV} must be a whole number of at least 1; got "${value}"`);
  return depth;
}

const label = (link: WorkflowCallLink) => `"${link.workflowName}"`;

/**
 * Refuses a call that closes a cycle (the target already runs somewhere up the chain, the
 * caller included) or goes deeper than `maxDepth` nested workflow runs.
 */
export function checkWorkflowCall(
  chain: readonly WorkflowCallLink[],
  target: WorkflowCallLink,
  callerDepth: number,
  maxDepth: number,
): void {
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

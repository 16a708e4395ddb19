import "server-only";
import type { RunRecord, WorkflowDocument } from "@/contract";
import { RunAnswers, type BlockBudget } from "@/executor";
import type { ToolApprovalDecision } from "@/tools/types";
import {
  executeAttempt,
  type ExecutionDependencies,
  type ResumedAttempt,
  type ReusedAttemptResults,
} from "./durable/run-execution";
import { loadRecordings } from "./replay";
import type { LiveEntry, RunServiceDependencies } from "./run-service-types";

/** How one attempt at a run is executed here (run-service.ts decides which). */
export interface AttemptOptions {
  depth: number;
  durable: boolean;
  /** The run's first attempt (its record as stored is the one given). */
  fresh: boolean;
  parentRunId?: string;
  signal?: AbortSignal;
  resumed?: ResumedAttempt;
  decisions?: Map<string, ToolApprovalDecision>;
  reused?: () => Promise<ReusedAttemptResults>;
  answers?: RunAnswers;
  parentBudget?: BlockBudget;
  /** The caller's `traceparent` stored with the run: its exported trace is a child of the caller's. */
  traceParent?: string;
}

/** The run an attempt executes, and where. */
export interface AttemptTarget {
  workspaceId: string;
  run: RunRecord;
  document: WorkflowDocument;
  worker: string;
  /** The server's time limit for runs whose workflow sets none. */
  runTimeoutMs: number | undefined;
}

/** Starts an attempt at a stored run in this process, and the entry the run service keeps for it while it runs. */
export function launchAttempt(
  deps: ExecutionDependencies & { repositories: RunServiceDependencies["repositories"] },
  target: AttemptTarget,
  options: AttemptOptions,
): LiveEntry {
  const { workspaceId, run, document } = target;
  const { replayOf } = run;
  // Only a durable run can stop and wait for an answer; a fresh one starts with an empty desk.
  const answers = options.durable ? (options.answers ?? new RunAnswers()) : undefined;
  const controller = new AbortController();
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener("abort", () => controller.abort(), { once: true });
  }
  const attempt = executeAttempt(deps, {
    run,
    workspaceId,
    document,
    depth: options.depth,
    signal: controller.signal,
    worker: target.worker,
    durable: options.durable,
    timeoutMs: document.settings?.timeoutMs ?? target.runTimeoutMs,
    ...(options.resumed ? { resumed: options.resumed } : {}),
    ...(options.reused ? { reused: options.reused } : {}),
    ...(replayOf ? { replay: () => loadRecordings(deps.repositories, replayOf) } : {}),
    ...(answers ? { answers } : {}),
    ...(options.parentBudget ? { parentBudget: options.parentBudget } : {}),
    ...(options.traceParent ? { traceParent: options.traceParent } : {}),
  });
  return {
    runId: run.id,
    workspaceId,
    workflowId: run.workflowId,
    channel: attempt.channel,
    attempt,
    controller,
    budget: run.budget,
    done: attempt.done,
    workflowName: document.name,
    parentRunId: options.parentRunId,
    test: run.test,
    decisions: options.decisions ?? new Map(),
    requested: new Map(),
    durable: options.durable,
    ...(answers ? { answers } : {}),
  };
}

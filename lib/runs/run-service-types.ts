import "server-only";
import type { RequestBudget, RerunOf, RunBudget, RunRecord, RunStatus, RunTrigger } from "@/contract";
import type { BlockBudget, RunAnswers } from "@/executor";
import type { Repositories } from "@/lib/db";
import type { ToolApprovalDecision } from "@/tools/types";
import type { PendingApproval } from "./approvals";
import type { RunBus, SignalBatcher } from "./durable/run-bus";
import type { AttemptHandle, ExecutionRepositories, RunExecutionSetup } from "./durable/run-execution";
import type { RunQueue } from "./durable/run-queue";
import type { RunSlots } from "./durable/run-slots";
import type { RunChannel } from "./run-channel";
import type { RunTarget } from "./run-target";

/** The run service's parts and the shapes it hands out (run-service.ts). */

export interface RunServiceDependencies {
  repositories: ExecutionRepositories & Pick<Repositories, "workflows" | "deployments" | "workers">;
  /** Prepares handlers and the env for one run of the workspace (its stored secrets are read here, once per run). */
  prepare(workspaceId: string): Promise<RunExecutionSetup>;
  /** A run's time limit when its workflow sets none. */
  runTimeoutMs?: number;
  /** How long a finished run's channel (its latest events) stays in memory for late subscribers. */
  retainMs?: number;
}

/** How the service reaches other processes; without it (tests, scripts) runs execute at once in this process. */
export interface RunDistribution {
  queue: RunQueue;
  bus: RunBus;
  signals: SignalBatcher;
  /** This process's id in the workers table (also DBOS's executor id). */
  workerId: string;
  /** A process whose heartbeat is older than this is dead. */
  leaseMs: number;
  /** Hands a stored queued run to the queue without waiting (see durable/hand-over.ts). */
  handOver(runId: string, workspaceId: string): void;
  /** This process's room for runs, when it executes them: a run started with room to spare executes here at once. */
  slots?: RunSlots;
}

export interface LiveRun {
  runId: string;
  workspaceId: string;
  workflowId: string;
  /** Resolves with the stored run once it has ended and everything is written, wherever it executed. */
  done: Promise<RunRecord>;
  /** Its events as they happen, when it executes in this process right away (a tool's run; every run without a queue). */
  channel?: RunChannel;
  /** The run's own cap as it applies (the lower of the workflow's and the request's), or null. */
  budget: RunBudget | null;
}

export interface LiveEntry extends LiveRun {
  channel: RunChannel;
  /** Decisions about this run's tool calls known to this attempt (stored before it, or sent while it ran). */
  decisions: Map<string, ToolApprovalDecision>;
  /** Tool calls this attempt asked a person about. */
  requested: Map<string, PendingApproval>;
  /** Where this attempt's ask blocks get their answers (durable runs only: only they can wait). */
  answers?: RunAnswers;
  /** Keeps checkpoints, so it can stop and go on later. */
  durable: boolean;
  attempt: AttemptHandle;
  controller: AbortController;
  /** The run as its first attempt here ended it (set once it ended, not paused): what a caller waiting for it is answered. */
  ended?: RunRecord;
  workflowName: string;
  parentRunId?: string;
  /** A test run: the workflows it runs (as tools or Workflow blocks) are test runs too. */
  test: boolean;
}

export interface StartRunOptions {
  /** Workflow-as-tool nesting depth (0 for a run started through the API). */
  depth?: number;
  /** The run whose agent called this workflow as a tool: such a run executes at once, inside its parent's process. */
  parentRunId?: string;
  /** Aborting it cancels the run: a parent run's cancellation reaches the runs it started. */
  signal?: AbortSignal;
  /** The draft (default) or the active deployment (run-target.ts). */
  target?: RunTarget;
  /** What started it; the editor when left out. */
  trigger?: RunTrigger;
  /** Run from a block (rerun.ts): the finished run whose results the blocks before `blockId` reuse. */
  rerunOf?: RerunOf;
  /** A replay (replay.ts): the finished run whose recorded model and tool answers every call of this run gets. */
  replayOf?: string;
  /** A test run: side effects answered from the blocks' samples, not sent (core/simulation.ts). */
  test?: boolean;
  /** The request's cap: it only lowers the workflow's `settings.budget.maxCostPerRun`. */
  budget?: RequestBudget;
  /** The calling block's budget, for a run started by another run's block: the caller's caps hold this run's model calls too. */
  parentBudget?: BlockBudget;
}

/** RunService.start: re-runs and replays start their runs through it. */
export type StartRun = (
  workspaceId: string,
  workflowId: string,
  input?: Record<string, unknown>,
  options?: StartRunOptions,
) => Promise<LiveRun>;

/** One link of a workflow-as-tool call chain. */
export interface RunLink {
  runId: string;
  workflowId: string;
  workflowName: string;
}

/** Ends a run that no process will finish, with everything a finished run has. */
export interface LostRunEnd {
  status: Extract<RunStatus, "failed" | "cancelled">;
  error: { code: "worker_lost" | "cancelled" | "server_restarted"; message: string };
}

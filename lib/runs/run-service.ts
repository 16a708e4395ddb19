import { workflowDocumentSchema, type WorkflowDocument } from "@/executor/document";
import { emptyUsage } from "@/executor/usage";
import { executeWorkflow, type ExecutionRequest, type ExecutionResult } from "@/executor/engine";
import type { Repositories, RunStatus, StoredRun } from "@/lib/db";
import { RunChannel } from "./run-channel";
import { RunRecorder } from "./run-recorder";

/** What a run needs from the runtime besides storage: handlers and services for its env. */
export interface RunExecutionSetup {
  lookupBlockType: ExecutionRequest["lookupBlockType"];
  lookupHandler: ExecutionRequest["lookupHandler"];
  env: (name: string) => string | undefined;
  services?: unknown;
}

export interface RunServiceDependencies {
  repositories: Pick<Repositories, "workflows" | "runs" | "spans" | "runEvents">;
  /** Prepares handlers and the env for one run (stored secrets are read here, once per run). */
  prepare(): Promise<RunExecutionSetup>;
  runTimeoutMs?: number;
  /** How long a finished run's events stay in memory for late subscribers. */
  retainMs?: number;
}

export interface LiveRun {
  runId: string;
  workflowId: string;
  channel: RunChannel;
  /** Resolves with the stored run once it has ended and everything is written. */
  done: Promise<StoredRun>;
}

interface LiveEntry extends LiveRun {
  controller: AbortController;
}

const END_STATUS: Record<ExecutionResult["status"], RunStatus> = { succeeded: "succeeded", failed: "failed", cancelled: "cancelled" };

/**
 * Starts runs in the background and keeps them going whatever happens to the request that
 * started them: a run belongs to the server, not to a browser tab. Streams subscribe to a run's
 * channel; storage gets events and spans in batches.
 */
export class RunService {
  private readonly live = new Map<string, LiveEntry>();

  constructor(private readonly deps: RunServiceDependencies) {}

  async start(workflowId: string, input: Record<string, unknown> = {}): Promise<LiveRun> {
    const { repositories } = this.deps;
    const workflow = await repositories.workflows.get(workflowId);
    // Stored documents passed validation when saved; parsing again applies defaults added since.
    const document: WorkflowDocument = workflowDocumentSchema.parse({
      name: workflow.name,
      description: workflow.description,
      variables: workflow.variables,
      blocks: workflow.blocks,
      edges: workflow.edges,
    });
    const run = await repositories.runs.create({ workflowId, status: "running", input });
    const channel = new RunChannel(run.id);
    const controller = new AbortController();
    const recorder = new RunRecorder(channel, {
      appendEvents: (runId, events) => repositories.runEvents.append(runId, events),
      upsertSpans: (spans) => repositories.spans.upsertMany(spans),
    });
    const done = this.execute(run, document, input, channel, recorder, controller.signal);
    const entry: LiveEntry = { runId: run.id, workflowId, channel, done, controller };
    this.live.set(run.id, entry);
    void done.finally(() => setTimeout(() => this.live.delete(run.id), this.deps.retainMs ?? 60_000).unref?.());
    return entry;
  }

  /** Cancels a live run; a run this process does not hold (left by a restart) is marked cancelled. */
  async cancel(runId: string): Promise<void> {
    const entry = this.live.get(runId);
    if (entry) {
      entry.controller.abort();
      return;
    }
    const run = await this.deps.repositories.runs.get(runId);
    if (run.status === "queued" || run.status === "running" || run.status === "paused") {
      await this.deps.repositories.runs.update(runId, { status: "cancelled", endedAt: new Date() }, { onlyIfStatus: ["queued", "running", "paused"] });
    }
  }

  liveRun(runId: string): LiveRun | undefined {
    return this.live.get(runId);
  }

  /** Runs left running by a process that stopped can never finish: mark them failed, once at start. */
  async failOrphans(): Promise<number> {
    return 0; // TODO(lead): wire to RunRepository once it can fail unfinished runs
  }

  private async execute(
    run: StoredRun,
    document: WorkflowDocument,
    input: Record<string, unknown>,
    channel: RunChannel,
    recorder: RunRecorder,
    signal: AbortSignal,
  ): Promise<StoredRun> {
    const { repositories } = this.deps;
    let result: ExecutionResult;
    try {
      const setup = await this.deps.prepare();
      result = await executeWorkflow({
        document,
        lookupBlockType: setup.lookupBlockType,
        lookupHandler: setup.lookupHandler,
        env: setup.env,
        services: setup.services,
        observer: recorder,
        runId: run.id,
        workflowId: run.workflowId,
        input,
        signal,
        runTimeoutMs: this.deps.runTimeoutMs,
      });
    } catch (error) {
      // executeWorkflow never throws for a failing run; this is a setup failure (e.g. secrets unreadable).
      const message = error instanceof Error ? error.message : String(error);
      recorder.event({ type: "run.failed", runId: run.id, error: { code: "run_setup_failed", message } });
      result = { status: "failed", output: null, error: { code: "run_setup_failed", message }, usage: emptyUsage(), durationMs: 0 };
    }
    await recorder.flush();
    const endedAt = new Date(new Date(run.startedAt).getTime() + result.durationMs);
    let stored: StoredRun | null;
    try {
      stored = await repositories.runs.update(run.id, {
        status: END_STATUS[result.status],
        output: result.output ?? null,
        error: result.error,
        endedAt,
        durationMs: Math.round(result.durationMs),
        usage: result.usage,
      });
    } finally {
      // Streams end even when storage failed; they must never hang.
      await recorder.publishEnd();
    }
    return stored ?? (await repositories.runs.get(run.id));
  }
}

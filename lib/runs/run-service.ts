import "server-only";
import { workflowDocumentSchema, type WorkflowDocument, type RunStatus, type RunRecord } from "@/contract";
import { emptyUsage, executeWorkflow, SecretRedactor, type ExecutionRequest, type ExecutionResult } from "@/executor";
import type { Repositories } from "@/lib/db";
import { RunApprovals } from "./approvals";
import { RunChannel } from "./run-channel";
import { RunRecorder } from "./run-recorder";

/** What a run needs from the runtime besides storage: block types, handlers and what `{{NAME}}` reads. */
export interface RunExecutionSetup {
  lookupBlockType: ExecutionRequest["lookupBlockType"];
  lookupHandler: ExecutionRequest["lookupHandler"];
  /** `{{NAME}}`: the run's workflowEnv (stored secrets, then the allowed process variables). */
  env: (name: string) => string | undefined;
  /** Every secret value the run could show, by name: masked as `[secret:NAME]` in all it stores and streams. */
  secrets: ReadonlyMap<string, string>;
}

export interface RunServiceDependencies {
  repositories: Pick<Repositories, "workflows" | "runs" | "spans" | "runEvents">;
  /** Prepares handlers and the env for one run of the workspace (its stored secrets are read here, once per run). */
  prepare(workspaceId: string): Promise<RunExecutionSetup>;
  runTimeoutMs?: number;
  /** How long a finished run's events stay in memory for late subscribers. */
  retainMs?: number;
}

export interface LiveRun {
  runId: string;
  workspaceId: string;
  workflowId: string;
  channel: RunChannel;
  /** Resolves with the stored run once it has ended and everything is written. */
  done: Promise<RunRecord>;
}

interface LiveEntry extends LiveRun {
  controller: AbortController;
  recorder: RunRecorder;
  redactor: SecretRedactor;
  workflowName: string;
  parentRunId?: string;
}

export interface StartRunOptions {
  /** Workflow-as-tool nesting depth (0 for a run started through the API). */
  depth?: number;
  /** The run whose agent called this workflow as a tool. */
  parentRunId?: string;
  /** Aborting it cancels the run: a parent run's cancellation reaches the runs it started. */
  signal?: AbortSignal;
}

/** One link of a workflow-as-tool call chain. */
export interface RunLink {
  runId: string;
  workflowId: string;
  workflowName: string;
}

const END_STATUS: Record<ExecutionResult["status"], RunStatus> = { succeeded: "succeeded", failed: "failed", cancelled: "cancelled" };

/**
 * Starts runs in the background and keeps them going whatever happens to the request that
 * started them: a run belongs to the server, not to a browser tab. Streams subscribe to a run's
 * channel; storage gets events and spans in batches.
 */
export class RunService {
  private readonly live = new Map<string, LiveEntry>();
  /** Tool calls waiting for a person; a run is `paused` while one waits. */
  readonly approvals: RunApprovals;

  constructor(private readonly deps: RunServiceDependencies) {
    this.approvals = new RunApprovals({
      emit: (runId, event) => {
        const entry = this.live.get(runId);
        if (!entry || entry.channel.ended) return false;
        entry.recorder.event(event);
        return true;
      },
      redact: (runId, value) => this.live.get(runId)?.redactor.redact(value) ?? value,
      setStatus: async (runId, status) => {
        await this.deps.repositories.runs.update(runId, { status }, { onlyIfStatus: ["running", "paused"] });
      },
    });
  }

  /** Starts a run of one of the workspace's workflows (another workspace's is not found). */
  async start(workspaceId: string, workflowId: string, input: Record<string, unknown> = {}, options: StartRunOptions = {}): Promise<LiveRun> {
    const { repositories } = this.deps;
    const workflow = await repositories.workflows.get(workspaceId, workflowId);
    // Stored documents passed validation when saved; parsing again applies defaults added since.
    const document: WorkflowDocument = workflowDocumentSchema.parse({
      name: workflow.name,
      description: workflow.description,
      variables: workflow.variables,
      blocks: workflow.blocks,
      edges: workflow.edges,
    });
    const run = await repositories.runs.create({ workspaceId, workflowId, status: "running", input });
    const channel = new RunChannel(run.id);
    const controller = new AbortController();
    // Filled with the run's secrets once they are read (prepare); everything recorded passes through it.
    const redactor = new SecretRedactor();
    const recorder = new RunRecorder(
      channel,
      {
        appendEvents: (runId, events) => repositories.runEvents.append(runId, events),
        upsertSpans: (spans) => repositories.spans.upsertMany(spans),
      },
      redactor,
    );
    if (options.signal) {
      if (options.signal.aborted) controller.abort();
      else options.signal.addEventListener("abort", () => controller.abort(), { once: true });
    }
    const done = this.execute(workspaceId, run, document, input, recorder, redactor, controller.signal, options.depth ?? 0);
    const entry: LiveEntry = {
      runId: run.id,
      workspaceId,
      workflowId,
      channel,
      done,
      controller,
      recorder,
      redactor,
      workflowName: document.name,
      parentRunId: options.parentRunId,
    };
    this.live.set(run.id, entry);
    void done.finally(() => setTimeout(() => this.live.delete(run.id), this.deps.retainMs ?? 60_000).unref?.());
    return entry;
  }

  /**
   * Cancels a live run of the workspace; a run this process does not hold (left by a restart) is
   * marked cancelled. Another workspace's run is not found.
   */
  async cancel(workspaceId: string, runId: string): Promise<void> {
    const entry = this.live.get(runId);
    if (entry && entry.workspaceId === workspaceId) {
      entry.controller.abort();
      return;
    }
    const run = await this.deps.repositories.runs.get(workspaceId, runId);
    if (run.status === "queued" || run.status === "running" || run.status === "paused") {
      await this.deps.repositories.runs.update(runId, { status: "cancelled", endedAt: new Date() }, { onlyIfStatus: ["queued", "running", "paused"] });
    }
  }

  liveRun(runId: string): LiveRun | undefined {
    return this.live.get(runId);
  }

  /** The workflow-as-tool chain that led to a live run, outermost first, ending with the run itself. */
  callChain(runId: string): RunLink[] {
    const chain: RunLink[] = [];
    for (let entry = this.live.get(runId); entry; entry = entry.parentRunId ? this.live.get(entry.parentRunId) : undefined) {
      chain.unshift({ runId: entry.runId, workflowId: entry.workflowId, workflowName: entry.workflowName });
      if (chain.length > 100) break;
    }
    return chain;
  }

  /** Runs left running by a process that stopped can never finish: mark them failed, once at start. */
  async failOrphans(): Promise<number> {
    return this.deps.repositories.runs.failUnfinished("The server restarted while this run was in progress.");
  }

  private async execute(
    workspaceId: string,
    run: RunRecord,
    document: WorkflowDocument,
    input: Record<string, unknown>,
    recorder: RunRecorder,
    redactor: SecretRedactor,
    signal: AbortSignal,
    depth: number,
  ): Promise<RunRecord> {
    const { repositories } = this.deps;
    let result: ExecutionResult;
    try {
      const setup = await this.deps.prepare(workspaceId);
      for (const [name, value] of setup.secrets) redactor.add(name, value);
      result = await executeWorkflow({
        document,
        lookupBlockType: setup.lookupBlockType,
        lookupHandler: setup.lookupHandler,
        env: setup.env,
        redactor,
        observer: recorder,
        runId: run.id,
        workflowId: run.workflowId,
        input,
        signal,
        runTimeoutMs: this.deps.runTimeoutMs,
        depth,
      });
    } catch (error) {
      // executeWorkflow never throws for a failing run; this is a setup failure (e.g. secrets unreadable).
      const message = redactor.redactText(error instanceof Error ? error.message : String(error));
      recorder.event({ type: "run.failed", runId: run.id, error: { code: "run_setup_failed", message } });
      result = { status: "failed", output: null, error: { code: "run_setup_failed", message }, usage: emptyUsage(), durationMs: 0 };
    }
    await recorder.flush();
    const endedAt = new Date(new Date(run.startedAt).getTime() + result.durationMs);
    let stored: RunRecord | null;
    try {
      // The engine masks both already; the stored row is masked here once more, whatever made it.
      stored = await repositories.runs.update(run.id, {
        status: END_STATUS[result.status],
        output: redactor.redact(result.output ?? null),
        error: redactor.redact(result.error),
        endedAt,
        durationMs: Math.round(result.durationMs),
        usage: result.usage,
      });
    } finally {
      // Streams end even when storage failed; they must never hang.
      await recorder.publishEnd();
    }
    return stored ?? (await repositories.runs.get(workspaceId, run.id));
  }
}

import "server-only";
import {
  effectiveRunBudget,
  workflowDocumentSchema,
  type RunBudget,
  type RunRecord,
  type RunStatus,
  type SpanRecord,
  type WorkflowDocument,
} from "@/contract";
import type { ToolApprovalDecision } from "@/tools/types";
import { RunAnswers } from "@/executor";
import { newRunRow, storedSpanForm, type NewRun } from "@/lib/db";
import { ApprovalNotFoundError, type PendingApproval, type RunApprovals } from "./approvals";
import { loadReused } from "./rerun";
import type { RunChannel } from "./run-channel";
import { PeopleWaits, type PeopleWaitsHost } from "./people-waits";
import { RunAsks } from "./run-asks";
import { RunWaiters } from "./run-waiters";
import { waitsFromEvents } from "./run-waits";
import { runIntake } from "./run-intake";
import { loadResumedAttempt } from "./resumed-attempt";
import { waitForRunEnd } from "./run-end-wait";
import { launchAttempt, type AttemptOptions } from "./live-attempt";
import { cancelStoredRun, endLostRun, type LostRunsHost } from "./lost-runs";
import { documentToRun } from "./run-target";
import { currentTraceParent, runLog } from "@/lib/observability";

export type { RunExecutionSetup } from "./durable/run-execution";
export type {
  LiveRun,
  LostRunEnd,
  RunDistribution,
  RunLink,
  RunServiceDependencies,
  StartRunOptions,
} from "./run-service-types";
import type {
  LiveEntry,
  LiveRun,
  LostRunEnd,
  RunDistribution,
  RunLink,
  RunServiceDependencies,
  StartRunOptions,
} from "./run-service-types";

const LOCAL_WORKER = "local";

function logRunError(runId: string, what: string, error: unknown): void {
  runLog(runId).error(what, error);
}

/**
 * Runs belong to the server, not to the request that started them. A run started on a process
 * that executes runs and has room for it is stored `running` and executes here at once; any other
 * is stored `queued` and handed to the durable queue, and a worker process (maybe this one)
 * executes it (`executeQueued`). Either way its events reach any process's streams through
 * storage and the run bus, and a run whose process dies goes through the queue (run-workers.ts).
 * Cancel reaches a run wherever it executes. Without a RunDistribution (tests, scripts) runs
 * execute at once here.
 */
export class RunService {
  private readonly live = new Map<string, LiveEntry>();
  private readonly waiters = new RunWaiters();
  private distribution: RunDistribution | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeResync: (() => void) | undefined;
  /** Tool calls and asks waiting for a person; a run is `paused` while one waits. */
  private readonly waits: PeopleWaits;

  /** Asks (ask blocks) waiting for an answer. */
  readonly asks: RunAsks;
  /** Runs stored to execute here at once that have not started yet: a cancel stops them before they do. */
  private readonly starting = new Map<string, { workspaceId: string; controller: AbortController }>();
  private readonly lostRuns: LostRunsHost;

  constructor(private readonly deps: RunServiceDependencies) {
    const host: PeopleWaitsHost = {
      repositories: deps.repositories,
      activeEntry: (runId) => this.activeEntry(runId),
      liveEntry: (runId) => this.live.get(runId),
      distribution: () => this.distribution,
      workerId: () => this.workerId,
      goOnHere: (runId) =>
        void this.executeQueued(runId).catch((error: unknown) => logRunError(runId, "could not go on", error)),
    };
    this.waits = new PeopleWaits(host);
    this.asks = new RunAsks(host, this.waits);
    this.lostRuns = {
      repositories: deps.repositories,
      distribution: () => this.distribution,
      wake: (runId) => this.wake(runId),
    };
  }

  /** The approval gate of agent tools (`requireApproval: true`). */
  get approvals(): RunApprovals {
    return this.waits.approvals;
  }

  /** Connects the service to the queue and the other processes (at start-up, before serving). */
  distribute(distribution: RunDistribution): void {
    this.unsubscribe?.();
    this.unsubscribeResync?.();
    this.distribution = distribution;
    // Signals may have been missed (the database went away): whoever waits reads storage again, and run ends are found there.
    this.unsubscribeResync = distribution.bus.onResync(() => this.waiters.notifyAll());
    this.unsubscribe = distribution.bus.subscribe((signal) => {
      if (signal.kind === "cancel")
        (this.live.get(signal.runId) ?? this.starting.get(signal.runId))?.controller.abort();
      else if (signal.kind === "approval" && this.live.has(signal.runId)) {
        const decision =
          signal.reason === undefined
            ? { approved: signal.approved }
            : { approved: signal.approved, reason: signal.reason };
        const workspaceId = this.live.get(signal.runId)!.workspaceId;
        void this.decideApproval(workspaceId, signal.runId, signal.toolCallId, decision).catch((error: unknown) => {
          // Decided already (or the run ended): the process that took the decision answered its caller.
          if (!(error instanceof ApprovalNotFoundError))
            logRunError(signal.runId, "could not record a decision", error);
        });
      } else if (signal.kind === "answer") this.asks.deliverLocal(signal.runId, signal.ask, signal.answer);
      else if (signal.kind === "ended") for (const runId of signal.runIds) this.wake(runId);
    });
  }

  get workerId(): string {
    return this.distribution?.workerId ?? LOCAL_WORKER;
  }

  /** Starts a run of one of the workspace's workflows (another workspace's is not found). */
  async start(
    workspaceId: string,
    workflowId: string,
    input: Record<string, unknown> = {},
    options: StartRunOptions = {},
  ): Promise<LiveRun> {
    const { repositories } = this.deps;
    const { document, deploymentId, workflowVersion } = await documentToRun(
      repositories,
      workspaceId,
      workflowId,
      options.target ?? "draft",
    );
    // Fixed when the run is asked for: a later edit of the workflow does not change a queued run's cap.
    const budget = effectiveRunBudget(document.settings?.budget, options.budget);
    const origin = {
      workflowVersion,
      ...(options.trigger ? { trigger: options.trigger } : {}),
      ...(deploymentId ? { deploymentId } : {}),
      ...(options.rerunOf ? { rerunOf: options.rerunOf } : {}),
      ...(budget ? { budget } : {}),
      ...(options.replayOf ? { replayOf: options.replayOf } : {}),
      // A workflow run by a test run (as a tool or a Workflow block) is a test run too: its side effects are simulated as well.
      ...(options.test || (options.parentRunId !== undefined && this.live.get(options.parentRunId)?.test)
        ? { test: true }
        : {}),
    };
    const distribution = this.distribution;
    const child = options.parentRunId !== undefined;
    // A workflow run by another (as a tool or a Workflow block) runs inside its caller's block, which is what a resumed
    // run repeats; a run held to its starter's budget (an evaluation's) runs here, where that budget is kept; a run with
    // no queue runs here; any other runs here at once if this process has room for it.
    const here = child || options.parentBudget !== undefined;
    const slots = distribution && !here ? distribution.slots : undefined;
    // Not during a burst: runs executing at once would compete with the starts still waiting for their answer (for the
    // CPU and, embedded, the one database session), so a burst's runs go through the queue (run-intake.ts).
    const room = !runIntake().inBurst && slots?.tryTake(workspaceId) === true;
    const atOnce = !distribution || here || room;
    // The trace of the request asking for it (an incoming `traceparent`, or the block of a run calling this workflow).
    const traceParent = currentTraceParent();
    let run: RunRecord;
    try {
      run = await this.store({
        workspaceId,
        workflowId,
        status: atOnce ? "running" : "queued",
        input,
        document,
        ...origin,
        ...(atOnce ? { worker: this.workerId } : {}),
        ...(child ? { parentRunId: options.parentRunId } : {}),
        ...(traceParent ? { traceParent } : {}),
      });
    } catch (error) {
      if (atOnce) slots?.give(workspaceId);
      throw error;
    }
    const { rerunOf } = options;
    const reused = rerunOf && (() => loadReused(repositories.checkpoints, rerunOf, document));
    if (!atOnce) {
      // Answered once stored: the hand-over follows, and one that is lost (the process died in between) leaves the run
      // queued for the recovery sweep to hand over again.
      distribution!.handOver(run.id, workspaceId);
      return this.handle(workspaceId, workflowId, run.id, budget);
    }
    if (slots) {
      // Stored `running` with this process as its worker: if the process dies now, the lease sweep resumes it through the
      // queue. Its own answer goes first, and a burst's answers if one began meanwhile (run-intake.ts).
      const controller = new AbortController();
      this.starting.set(run.id, { workspaceId, controller });
      void runIntake()
        .beforeExecuting()
        .then(() => {
          this.starting.delete(run.id);
          const options = {
            depth: 0,
            durable: true,
            fresh: true,
            signal: controller.signal,
            ...(reused ? { reused } : {}),
            ...(traceParent ? { traceParent } : {}),
          };
          return this.execute(workspaceId, run, document, options).done;
        })
        .catch((error: unknown) => logRunError(run.id, "failed", error))
        .finally(() => slots.give(workspaceId));
      return this.handle(workspaceId, workflowId, run.id, budget);
    }
    const entry = this.execute(workspaceId, run, document, {
      depth: options.depth ?? 0,
      parentRunId: options.parentRunId,
      signal: options.signal,
      durable: !child,
      fresh: true,
      reused,
      ...(options.parentBudget ? { parentBudget: options.parentBudget } : {}),
      ...(traceParent ? { traceParent } : {}),
    });
    // A run may pause and go on in later attempts; `done` is its end, not this attempt's.
    return this.handle(workspaceId, workflowId, run.id, budget, entry.channel);
  }

  /** Stores a new run in the next group-committed write (lib/db/run-writer.ts); the record is made, not read back. */
  private async store(run: NewRun): Promise<RunRecord> {
    const { row, record } = newRunRow(run);
    await this.deps.repositories.runWriter.write({ runId: row.id, run: row });
    return record;
  }

  /**
   * Executes a queued run in this process (the durable queue calls it): a queued run starts, one
   * whose process died goes on from its checkpoints. Resolves when it has ended.
   */
  async executeQueued(runId: string, workspaceHint?: string): Promise<void> {
    const { repositories } = this.deps;
    const slots = this.distribution?.slots;
    // Within this process's limits, shared with the runs it executes at once (durable/run-slots.ts). The queue names the
    // run's workspace; a run going on after a person answered is looked up first.
    let holding = slots && workspaceHint !== undefined ? workspaceHint : undefined;
    if (holding !== undefined) await slots!.take(holding);
    try {
      // A burst of starts being answered by this thread goes first: answered, then executed.
      await runIntake().beforeExecuting();
      // A parked run goes on once nothing it waits on is left. An attempt handed over before that (one a process had taken
      // when it died, handed over again by the recovery sweep) has nothing to do: the decision hands over its own.
      const claimed = await repositories.runs.claim(runId, this.workerId, {
        mayGoOn: async (id) =>
          waitsFromEvents((await repositories.runEvents.listAfter(id, 0)).map((item) => item.event)).mayGoOn,
      });
      if (!claimed) return;
      const { workspaceId } = claimed;
      if (slots && holding !== workspaceId) {
        if (holding !== undefined) slots.give(holding);
        holding = undefined;
        await slots.take(workspaceId);
        holding = workspaceId;
      }
      const document = workflowDocumentSchema.parse(
        claimed.document ?? (await repositories.workflows.get(workspaceId, claimed.run.workflowId)),
      );
      const earlier = claimed.fresh
        ? undefined
        : await loadResumedAttempt(repositories, runId, claimed.parked === true);
      const { rerunOf } = claimed.run;
      const reused = rerunOf ? () => loadReused(repositories.checkpoints, rerunOf, document) : undefined;
      const entry = this.execute(workspaceId, claimed.run, document, {
        depth: 0,
        durable: true,
        fresh: claimed.fresh,
        resumed: earlier?.resumed,
        decisions: earlier?.decisions ?? new Map(),
        reused,
        answers: earlier?.answers ?? new RunAnswers(),
        ...(claimed.traceParent ? { traceParent: claimed.traceParent } : {}),
      });
      await entry.done;
    } finally {
      if (holding !== undefined) slots!.give(holding);
    }
  }

  private execute(workspaceId: string, run: RunRecord, document: WorkflowDocument, options: AttemptOptions): LiveEntry {
    const entry = launchAttempt(
      { repositories: this.deps.repositories, prepare: this.deps.prepare, signals: this.distribution?.signals },
      { workspaceId, run, document, worker: this.workerId, runTimeoutMs: this.deps.runTimeoutMs },
      options,
    );
    this.live.set(run.id, entry);
    // Whoever waits for the run (a stream, a caller waiting for its end) may have looked before it started here.
    this.waiters.notify(run.id);
    void entry.done
      .then(async (stored) => {
        if (stored.status !== "paused") {
          if (options.fresh) entry.ended = stored;
          return;
        }
        // A paused attempt is over for good (the run goes on in another one); an ended one stays a while for late streams.
        if (this.live.get(run.id) === entry) this.live.delete(run.id);
        // A decision may have come while it was stopping.
        await this.waits
          .resumeIfFree(workspaceId, run.id)
          .catch((error: unknown) => logRunError(run.id, "could not go on after its pause", error));
        await this.asks
          .watchDeadlines(run.id)
          .catch((error: unknown) => logRunError(run.id, "could not watch its asks' deadlines", error));
      })
      .finally(() => {
        this.wake(run.id);
        setTimeout(
          () => this.live.get(run.id) === entry && this.live.delete(run.id),
          this.deps.retainMs ?? 60_000,
        ).unref?.();
      })
      // The attempt's own failure reaches whoever awaits it (the queue's workflow, a stream); this chain only tidies up.
      .catch(() => {});
    return entry;
  }

  /** A started run; `done` is made when first read, so a run nobody waits for costs no waiting. */
  private handle(
    workspaceId: string,
    workflowId: string,
    runId: string,
    budget: RunBudget | null,
    channel?: RunChannel,
  ): LiveRun {
    let done: Promise<RunRecord> | undefined;
    const sources = {
      waiters: this.waiters,
      localDone: (id: string) => this.live.get(id)?.done,
      readStored: (workspace: string, id: string) => this.deps.repositories.runs.get(workspace, id),
    };
    const whenEnded = () => waitForRunEnd(sources, workspaceId, runId);
    return {
      runId,
      workspaceId,
      workflowId,
      budget,
      ...(channel ? { channel } : {}),
      get done() {
        return (done ??= whenEnded());
      },
    };
  }

  private wake(runId: string): void {
    this.waiters.wake(runId);
  }

  /**
   * Cancels a run of the workspace wherever it is: a queued one is taken off the queue, one this
   * process executes (or is about to) stops at once, one another live process executes is told
   * through the run bus, and one whose process died ends here. Another workspace's run is not found.
   */
  async cancel(workspaceId: string, runId: string): Promise<void> {
    const entry = this.live.get(runId);
    if (entry && entry.workspaceId === workspaceId && !entry.channel.ended) {
      entry.controller.abort();
      return;
    }
    const starting = this.starting.get(runId);
    if (starting && starting.workspaceId === workspaceId) {
      starting.controller.abort();
      return;
    }
    if (!(await cancelStoredRun(this.lostRuns, workspaceId, runId))) return this.cancel(workspaceId, runId);
  }

  /** Ends a run no process will finish (lost-runs.ts). */
  endLost(run: RunRecord, end: LostRunEnd, from: readonly RunStatus[]): Promise<boolean> {
    return endLostRun(this.lostRuns, run, end, from);
  }

  /**
   * Resolves when something may have happened to the run (new events stored, it ended, or it
   * started executing here) or after `timeoutMs`, whichever comes first.
   */
  nextSignal(runId: string, timeoutMs: number): { promise: Promise<void>; cancel: () => void } {
    const woken = this.waiters.next(runId, timeoutMs);
    const unsubscribe = this.distribution?.bus.subscribe((signal) => {
      if (signal.kind === "events" && signal.runs.some(([id]) => id === runId)) this.waiters.notify(runId);
    });
    const cancel = () => {
      woken.cancel();
      unsubscribe?.();
    };
    return { promise: woken.promise.finally(cancel), cancel };
  }

  /** The attempt executing the run in this process now, if any (not one that ended or paused). */
  private activeEntry(runId: string): LiveEntry | undefined {
    const entry = this.live.get(runId);
    return entry && !entry.channel.ended && !entry.channel.handedOver ? entry : undefined;
  }

  /** The tool calls of a run waiting for a person, wherever it executes. */
  pendingApprovals(runId: string): Promise<PendingApproval[]> {
    return this.waits.pendingApprovals(runId);
  }

  /**
   * Decides a waiting tool call wherever its run is (people-waits.ts).
   * @throws ApprovalNotFoundError when no such call waits
   */
  decideApproval(
    workspaceId: string,
    runId: string,
    toolCallId: string,
    decision: ToolApprovalDecision,
  ): Promise<PendingApproval> {
    return this.waits.decideApproval(workspaceId, runId, toolCallId, decision);
  }

  /**
   * The ended run with its spans as this process executed it from its start to its end, made from
   * the attempt's memory (what it stored), or undefined: read it from storage.
   */
  endedHere(runId: string): (RunRecord & { spans: SpanRecord[] }) | undefined {
    const entry = this.live.get(runId);
    const spans = entry?.ended && entry.attempt.recorder.spans();
    return entry?.ended && spans ? { ...entry.ended, spans: spans.map(storedSpanForm) } : undefined;
  }

  /** The run as this process executes it now, if it does (its channel holds this attempt's latest events and every one not yet stored). */
  liveRun(runId: string): (LiveRun & { channel: RunChannel }) | undefined {
    return this.live.get(runId);
  }

  /** The workflow-as-tool chain that led to a live run, outermost first, ending with the run itself. */
  callChain(runId: string): RunLink[] {
    const chain: RunLink[] = [];
    for (
      let entry = this.live.get(runId);
      entry;
      entry = entry.parentRunId ? this.live.get(entry.parentRunId) : undefined
    ) {
      chain.unshift({ runId: entry.runId, workflowId: entry.workflowId, workflowName: entry.workflowName });
      if (chain.length > 100) break;
    }
    return chain;
  }

  /** Stops every run this process executes without ending them (shutdown): another process resumes them. */
  liveRunIds(): string[] {
    return [...this.live.values()].filter((entry) => !entry.channel.ended).map((entry) => entry.runId);
  }
}

import "server-only";
import { effectiveRunBudget, workflowDocumentSchema, type RunBudget, type RunEvent, type RunRecord, type RunStatus, type WorkflowDocument } from "@/contract";
import type { ToolApprovalDecision } from "@/tools/types";
import { answersFromEvents, RunAnswers, type BlockBudget } from "@/executor";
import { ApprovalNotFoundError, decisionsFromEvents, type PendingApproval, type RunApprovals } from "./approvals";
import { pausedMsOf } from "./durable/paused-time";
import { executeAttempt, type ResumedAttempt, type ReusedAttemptResults } from "./durable/run-execution";
import { loadRecordings } from "./replay";
import { loadReused } from "./rerun";
import type { RunChannel } from "./run-channel";
import { PeopleWaits, type PeopleWaitsHost } from "./people-waits";
import { RunAsks } from "./run-asks";
import { RunWaiters } from "./run-waiters";
import { waitsFromEvents } from "./run-waits";
import { runIntake } from "./run-intake";
import { documentToRun } from "./run-target";

export type { RunExecutionSetup } from "./durable/run-execution";
export type { LiveRun, LostRunEnd, RunDistribution, RunLink, RunServiceDependencies, StartRunOptions } from "./run-service-types";
import type { LiveEntry, LiveRun, LostRunEnd, RunDistribution, RunLink, RunServiceDependencies, StartRunOptions } from "./run-service-types";

const LOCAL_WORKER = "local";

function logRunError(runId: string, what: string, error: unknown): void {
  console.error(`[trellis] run ${runId} ${what}:`, error instanceof Error ? error.message : String(error));
}

/** How often a caller waiting for a run elsewhere re-reads it, in case a signal was lost. */
const WAIT_POLL_MS = 2_000;

/**
 * Runs belong to the server, not to the request that started them. A run is stored `queued` and
 * handed to the durable queue; a worker process (maybe this one) executes it (`executeQueued`),
 * and its events reach any process's streams through storage and the run bus. Cancel reaches a
 * run wherever it executes. Without a RunDistribution (tests, scripts) runs execute at once here.
 */
export class RunService {
  private readonly live = new Map<string, LiveEntry>();
  private readonly waiters = new RunWaiters();
  /** Streams waiting for a run to start executing here. */
  private readonly starts = new Set<() => void>();
  private distribution: RunDistribution | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeResync: (() => void) | undefined;
  /** Tool calls and asks waiting for a person; a run is `paused` while one waits. */
  private readonly waits: PeopleWaits;

  /** Asks (ask blocks) waiting for an answer. */
  readonly asks: RunAsks;

  constructor(private readonly deps: RunServiceDependencies) {
    const host: PeopleWaitsHost = {
      repositories: deps.repositories,
      activeEntry: (runId) => this.activeEntry(runId),
      liveEntry: (runId) => this.live.get(runId),
      distribution: () => this.distribution,
      workerId: () => this.workerId,
      goOnHere: (runId) => void this.executeQueued(runId).catch((error: unknown) => logRunError(runId, "could not go on", error)),
    };
    this.waits = new PeopleWaits(host);
    this.asks = new RunAsks(host, this.waits);
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
      if (signal.kind === "cancel") this.live.get(signal.runId)?.controller.abort();
      else if (signal.kind === "approval" && this.live.has(signal.runId)) {
        const decision = signal.reason === undefined ? { approved: signal.approved } : { approved: signal.approved, reason: signal.reason };
        const workspaceId = this.live.get(signal.runId)!.workspaceId;
        void this.decideApproval(workspaceId, signal.runId, signal.toolCallId, decision).catch((error: unknown) => {
          // Decided already (or the run ended): the process that took the decision answered its caller.
          if (!(error instanceof ApprovalNotFoundError)) logRunError(signal.runId, "could not record a decision", error);
        });
      } else if (signal.kind === "answer") this.asks.deliverLocal(signal.runId, signal.ask, signal.answer);
      else if (signal.kind === "ended") for (const runId of signal.runIds) this.wake(runId);
    });
  }

  get workerId(): string {
    return this.distribution?.workerId ?? LOCAL_WORKER;
  }

  /** Starts a run of one of the workspace's workflows (another workspace's is not found). */
  async start(workspaceId: string, workflowId: string, input: Record<string, unknown> = {}, options: StartRunOptions = {}): Promise<LiveRun> {
    const { repositories } = this.deps;
    const { document, deploymentId, workflowVersion } = await documentToRun(repositories, workspaceId, workflowId, options.target ?? "draft");
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
      ...(options.test || (options.parentRunId !== undefined && this.live.get(options.parentRunId)?.test) ? { test: true } : {}),
    };
    const distribution = this.distribution;
    if (!distribution || options.parentRunId !== undefined) {
      const run = await repositories.runs.create(
        {
          workspaceId,
          workflowId,
          status: "running",
          input,
          document,
          worker: this.workerId,
          ...origin,
          ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
        },
        { workflowChecked: true },
      );
      // A workflow run by another (as a tool or a Workflow block) runs inside its caller's block, which is what a resumed run repeats.
      const durable = options.parentRunId === undefined;
      const { rerunOf } = options;
      const reused = rerunOf && (() => loadReused(repositories.checkpoints, rerunOf, document));
      const entry = this.execute(workspaceId, run, document, {
        depth: options.depth ?? 0,
        parentRunId: options.parentRunId,
        signal: options.signal,
        durable,
        reused,
        ...(options.parentBudget ? { parentBudget: options.parentBudget } : {}),
      });
      // A run may pause and go on in later attempts; `done` is its end, not this attempt's.
      return this.handle(workspaceId, workflowId, run.id, budget, entry.channel);
    }
    const run = await repositories.runs.create({ workspaceId, workflowId, status: "queued", input, document, ...origin }, { workflowChecked: true });
    // Answered once stored: the hand-over follows, and one that is lost (the process died in between) leaves the run
    // queued for the recovery sweep to hand over again.
    distribution.handOver(run.id, workspaceId);
    return this.handle(workspaceId, workflowId, run.id, budget);
  }

  /**
   * Executes a queued run in this process (the durable queue calls it): a queued run starts, one
   * whose process died goes on from its checkpoints. Resolves when it has ended.
   */
  async executeQueued(runId: string): Promise<void> {
    const { repositories } = this.deps;
    // Run starts being answered by this thread go first; a burst is answered, then executed.
    await runIntake().whenQuiet();
    // A parked run goes on once nothing it waits on is left. An attempt handed over before that (one a process had taken
    // when it died, handed over again by the recovery sweep) has nothing to do: the decision hands over its own.
    const claimed = await repositories.runs.claim(runId, this.workerId, {
      mayGoOn: async (id) => waitsFromEvents((await repositories.runEvents.listAfter(id, 0)).map((item) => item.event)).mayGoOn,
    });
    if (!claimed) return;
    const { workspaceId } = claimed;
    const document = workflowDocumentSchema.parse(claimed.document ?? (await repositories.workflows.get(workspaceId, claimed.run.workflowId)));
    let resumed: ResumedAttempt | undefined;
    let decisions = new Map<string, ToolApprovalDecision>();
    let answers = new RunAnswers();
    if (!claimed.fresh) {
      if (!claimed.parked) await this.closeLostBlocks(runId);
      const [stored, events] = await Promise.all([repositories.checkpoints.load(runId), repositories.runEvents.listAfter(runId, 0)]);
      const stream = events.map((item) => item.event);
      decisions = decisionsFromEvents(stream);
      answers = answersFromEvents(stream);
      resumed = {
        checkpoints: stored.checkpoints,
        memos: stored.memos,
        lastSeq: events.at(-1)?.seq ?? 0,
        reason: claimed.parked ? waitsFromEvents(stream).resumeReason : "recovered",
        pausedMs: pausedMsOf(events.map((item) => item.event)),
      };
    }
    const { rerunOf } = claimed.run;
    const reused = rerunOf ? () => loadReused(repositories.checkpoints, rerunOf, document) : undefined;
    const entry = this.execute(workspaceId, claimed.run, document, { depth: 0, durable: true, resumed, decisions, reused, answers });
    await entry.done;
  }

  /**
   * The blocks a dead process was executing: their spans end `worker_lost`, and the stream says so
   * with `block.failed` (not handled) before `run.resumed`, so a client following it closes them
   * before the blocks run again.
   */
  private async closeLostBlocks(runId: string): Promise<void> {
    const { spans, runEvents } = this.deps.repositories;
    const error = { code: "worker_lost", message: "The process executing this block stopped; the block runs again." } as const;
    const lost = (await spans.listByRun(runId)).filter((span) => span.kind === "block" && span.status === "running");
    await spans.closeRunning(runId, error);
    if (lost.length === 0) return;
    const lastSeq = await runEvents.lastSeq(runId);
    await runEvents.append(
      runId,
      lost.map((span, index) => ({
        seq: lastSeq + 1 + index,
        event: { type: "block.failed", runId, blockId: span.blockId, spanId: span.id, error, handled: false } satisfies RunEvent,
      })),
    );
  }

  private execute(
    workspaceId: string,
    run: RunRecord,
    document: WorkflowDocument,
    options: {
      depth: number;
      durable: boolean;
      parentRunId?: string;
      signal?: AbortSignal;
      resumed?: ResumedAttempt;
      decisions?: Map<string, ToolApprovalDecision>;
      reused?: () => Promise<ReusedAttemptResults>;
      answers?: RunAnswers;
      parentBudget?: BlockBudget;
    },
  ): LiveEntry {
    const { replayOf } = run;
    // Only a durable run can stop and wait for an answer; a fresh one starts with an empty desk.
    const answers = options.durable ? (options.answers ?? new RunAnswers()) : undefined;
    const controller = new AbortController();
    if (options.signal) {
      if (options.signal.aborted) controller.abort();
      else options.signal.addEventListener("abort", () => controller.abort(), { once: true });
    }
    const attempt = executeAttempt(
      { repositories: this.deps.repositories, prepare: this.deps.prepare, signals: this.distribution?.signals },
      {
        run,
        workspaceId,
        document,
        depth: options.depth,
        signal: controller.signal,
        worker: this.workerId,
        durable: options.durable,
        timeoutMs: document.settings?.timeoutMs ?? this.deps.runTimeoutMs,
        ...(options.resumed ? { resumed: options.resumed } : {}),
        ...(options.reused ? { reused: options.reused } : {}),
        ...(replayOf ? { replay: () => loadRecordings(this.deps.repositories, replayOf) } : {}),
        ...(answers ? { answers } : {}),
        ...(options.parentBudget ? { parentBudget: options.parentBudget } : {}),
      },
    );
    const entry: LiveEntry = {
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
    this.live.set(run.id, entry);
    for (const started of [...this.starts]) started();
    void attempt.done
      .then(async (stored) => {
        if (stored.status !== "paused") return;
        // A paused attempt is over for good (the run goes on in another one); an ended one stays a while for late streams.
        if (this.live.get(run.id) === entry) this.live.delete(run.id);
        // A decision may have come while it was stopping.
        await this.waits.resumeIfFree(workspaceId, run.id).catch((error: unknown) => logRunError(run.id, "could not go on after its pause", error));
        await this.asks.watchDeadlines(run.id).catch((error: unknown) => logRunError(run.id, "could not watch its asks' deadlines", error));
      })
      .finally(() => {
        this.wake(run.id);
        setTimeout(() => this.live.get(run.id) === entry && this.live.delete(run.id), this.deps.retainMs ?? 60_000).unref?.();
      })
      // The attempt's own failure reaches whoever awaits it (the queue's workflow, a stream); this chain only tidies up.
      .catch(() => {});
    return entry;
  }

  /** A started run; `done` is made when first read, so a run nobody waits for costs no waiting. */
  private handle(workspaceId: string, workflowId: string, runId: string, budget: RunBudget | null, channel?: RunChannel): LiveRun {
    let done: Promise<RunRecord> | undefined;
    const whenEnded = () => this.whenEnded(workspaceId, runId);
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

  /**
   * The stored run once it has ended, wherever it executes: the attempt's own result when it
   * executes here (an attempt that only paused is not the end), else the stored row, read when a
   * signal says it may have ended, when it ended recently, or at the fallback poll.
   */
  private async whenEnded(workspaceId: string, runId: string): Promise<RunRecord> {
    const { runs } = this.deps.repositories;
    let readStorage = this.waiters.endedLately(runId);
    for (;;) {
      // Registered before looking, so an end between the look and the wait still wakes it.
      const woken = this.waiters.next(runId, WAIT_POLL_MS).promise;
      const local = this.live.get(runId);
      if (local) {
        const stored = await local.done;
        if (stored.status !== "paused") return stored;
      } else if (readStorage) {
        const run = await runs.get(workspaceId, runId);
        if (run.status === "succeeded" || run.status === "failed" || run.status === "cancelled") return run;
      }
      await woken;
      readStorage = true;
    }
  }

  private wake(runId: string): void {
    this.waiters.wake(runId);
  }

  /**
   * Cancels a run of the workspace wherever it is: a queued one is taken off the queue, one this
   * process executes stops at once, one another live process executes is told through the run bus,
   * and one whose process died ends here. Another workspace's run is not found.
   */
  async cancel(workspaceId: string, runId: string): Promise<void> {
    const entry = this.live.get(runId);
    if (entry && entry.workspaceId === workspaceId && !entry.channel.ended) {
      entry.controller.abort();
      return;
    }
    const { runs, workers } = this.deps.repositories;
    const run = await runs.get(workspaceId, runId);
    const distribution = this.distribution;
    if (run.status === "queued") {
      await distribution?.queue.dequeue(runId);
      if (await this.endLost(run, { status: "cancelled", error: { code: "cancelled", message: "The run was cancelled" } }, ["queued"])) return;
      return this.cancel(workspaceId, runId);
    }
    if (run.status !== "running" && run.status !== "paused") return;
    if (distribution && run.worker && (await workers.isAlive(run.worker, distribution.leaseMs))) {
      await distribution.bus.publish({ kind: "cancel", runId });
      return;
    }
    await distribution?.queue.dequeue(runId);
    await this.endLost(run, { status: "cancelled", error: { code: "cancelled", message: "The run was cancelled" } }, ["running", "paused"]);
  }

  /**
   * Ends a run no process will finish (cancelled while queued, its process dead and nothing to
   * resume): its row, its spans still marked running, and its final event, like any ended run.
   * Answers false when the run was no longer in one of `from` (someone else moved it first).
   */
  async endLost(run: RunRecord, end: LostRunEnd, from: readonly RunStatus[]): Promise<boolean> {
    const { runs, spans, runEvents } = this.deps.repositories;
    const endedAt = new Date();
    const durationMs = Math.max(0, endedAt.getTime() - new Date(run.startedAt).getTime());
    const updated = await runs.update(run.id, { status: end.status, error: end.error, endedAt, durationMs }, { onlyIfStatus: from });
    if (!updated) return false;
    const cancelled = end.status === "cancelled";
    const why = { code: end.error.code, message: cancelled ? "The run was cancelled while this was running" : end.error.message };
    await spans.closeRunning(run.id, why, endedAt, cancelled ? "cancelled" : "failed");
    const event: RunEvent = end.status === "cancelled" ? { type: "run.cancelled", runId: run.id } : { type: "run.failed", runId: run.id, error: end.error };
    await runEvents.append(run.id, [{ seq: (await runEvents.lastSeq(run.id)) + 1, event }]);
    this.distribution?.signals.ended(run.id);
    this.wake(run.id);
    return true;
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
    const started = () => this.live.has(runId) && this.waiters.notify(runId);
    this.starts.add(started);
    const cancel = () => {
      woken.cancel();
      unsubscribe?.();
      this.starts.delete(started);
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
  decideApproval(workspaceId: string, runId: string, toolCallId: string, decision: ToolApprovalDecision): Promise<PendingApproval> {
    return this.waits.decideApproval(workspaceId, runId, toolCallId, decision);
  }

  /** The run as this process executes it now, if it does (its channel holds this attempt's latest events and every one not yet stored). */
  liveRun(runId: string): (LiveRun & { channel: RunChannel }) | undefined {
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

  /** Stops every run this process executes without ending them (shutdown): another process resumes them. */
  liveRunIds(): string[] {
    return [...this.live.values()].filter((entry) => !entry.channel.ended).map((entry) => entry.runId);
  }
}

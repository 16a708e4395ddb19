import "server-only";
import type { AskAnswer, RunBudget, RunRecord, RunResumeReason, WorkflowDocument } from "@/contract";
import {
  emptyUsage,
  executeWorkflow,
  RunStoppedError,
  SecretRedactor,
  type BlockCheckpoint,
  type CheckpointStore,
  type ExecutionRequest,
  type ExecutionResult,
  type ReusedResults,
  type RunAnswers,
  type BlockBudget,
  type SpendLimits,
} from "@/executor";
import { retryWhileUnreachable } from "@/lib/db";
import { runSpendCaps } from "@/lib/budgets/run-spend-caps";
import { runTelemetry } from "@/lib/observability";
import { RunChannel } from "../run-channel";
import { RunRecorder } from "../run-recorder";
import type { SignalBatcher } from "./run-bus";
import { storeRunEnd } from "./run-end";
import type { ExecutionRepositories } from "./execution-repositories";
import { RunOverheadMeter } from "./run-overhead";
import { RunWatchdog } from "./run-watchdog";

/** What a run needs from the runtime besides storage: block types, handlers and what `{{NAME}}` reads. */
export interface RunExecutionSetup {
  lookupBlockType: ExecutionRequest["lookupBlockType"];
  lookupHandler: ExecutionRequest["lookupHandler"];
  /** `{{NAME}}`: the run's workflowEnv (stored secrets, then the allowed process variables). */
  env: (name: string) => string | undefined;
  /** Every secret value the run could show, by name: masked as `[secret:NAME]` in all it stores and streams. */
  secrets: ReadonlyMap<string, string>;
}

/** What earlier attempts at a run left: finished blocks, block memos, and how many events they stored. */
export interface ResumedAttempt {
  checkpoints: Map<string, BlockCheckpoint>;
  memos: Map<string, unknown>;
  lastSeq: number;
  reason: RunResumeReason;
  /** How long the run has waited paused for a person: not part of its time limit. */
  pausedMs: number;
}

/** Run from a block: the source run's results this run reuses, and the secret values they hold (masked like the workspace's). */
export interface ReusedAttemptResults {
  results: ReusedResults;
  secrets: ReadonlyArray<[string, string]>;
}

/** A replay: the source run's model answers and tool results, by memo key; every call is answered from them or refused. */
export interface ReplayRecordings {
  runId: string;
  memos: ReadonlyMap<string, unknown>;
  /** The answers people gave the source run's Ask blocks, by checkpoint key: the replay's asks take them instead of waiting. */
  answers: ReadonlyArray<[string, AskAnswer]>;
}

export type { ExecutionRepositories } from "./execution-repositories";

/** One attempt at executing a stored run in this process. */
export interface RunAttempt {
  run: RunRecord;
  workspaceId: string;
  document: WorkflowDocument;
  depth: number;
  signal: AbortSignal;
  /** The process executing it (stamped on its spans). */
  worker: string;
  /** Durable runs keep checkpoints; a workflow called as a tool runs inside its parent's block and keeps none. */
  durable: boolean;
  /** Where ask blocks get their answers (durable runs). */
  answers?: RunAnswers;
  /** Set when an earlier attempt stopped midway: what it stored goes on from here. */
  resumed?: ResumedAttempt;
  /** Run from a block: reads the results of the run it was started from (a failure to read them fails the run). */
  reused?: () => Promise<ReusedAttemptResults>;
  /** A replay: reads the recordings it answers from (a failure to read them fails the run). */
  replay?: () => Promise<ReplayRecordings>;
  timeoutMs?: number;
  /** A run started by another run's block (a workflow tool, a Workflow block): that block's budget holds this run too. */
  parentBudget?: BlockBudget;
  /** The caller's `traceparent` stored with the run (lib/observability exports the run's trace under it). */
  traceParent?: string;
}

export interface ExecutionDependencies {
  repositories: ExecutionRepositories;
  prepare(workspaceId: string): Promise<RunExecutionSetup>;
  signals?: SignalBatcher;
}

function storageBehindError(waitingBytes: number): RunStoppedError {
  const waiting =
    waitingBytes >= 1024 * 1024
      ? `${Math.round(waitingBytes / (1024 * 1024))} MB`
      : `${Math.ceil(waitingBytes / 1024)} KB`;
  return new RunStoppedError(
    "storage_behind",
    `The database has fallen behind this run: ${waiting} of its events could not be stored in time (the database was unreachable or too slow). The run was stopped so that the server's memory stays bounded; its events are kept and stored once the database answers. Check the database's health and run it again.`,
  );
}

/** The caps the attempt's model calls are held to, with the run's own cap to show on `run.started`; none when it has none. */
async function spendLimits(
  repositories: ExecutionRepositories,
  attempt: RunAttempt,
): Promise<(SpendLimits & { shown?: RunBudget }) | undefined> {
  const { run, parentBudget } = attempt;
  // Only a run started by another run's block executes without checkpoints.
  const child = parentBudget !== undefined || !attempt.durable;
  const caps = repositories.budgets
    ? await runSpendCaps(repositories.budgets, run, attempt.workspaceId, {
        resumed: attempt.resumed !== undefined,
        child,
      })
    : run.budget
      ? [{ maxCost: run.budget.maxCost, source: run.budget.source, spentBefore: 0 }]
      : [];
  if (caps.length === 0 && !parentBudget) return undefined;
  return { caps, ...(parentBudget ? { parent: parentBudget } : {}), ...(run.budget ? { shown: run.budget } : {}) };
}

/** The parts of an attempt open streams and approvals talk to while it runs. */
export interface AttemptHandle {
  channel: RunChannel;
  recorder: RunRecorder;
  redactor: SecretRedactor;
  done: Promise<RunRecord>;
}

/** Times the writes a run waits for (its checkpoints), for the run's overhead figures. */
type StorageTimer = Pick<RunOverheadMeter, "storing">;

function checkpointStore(
  deps: ExecutionDependencies,
  attempt: RunAttempt,
  recorder: RunRecorder,
  redactor: SecretRedactor,
  reused: ReusedAttemptResults | undefined,
  replay: ReplayRecordings | undefined,
  meter: StorageTimer,
): CheckpointStore {
  const restored = attempt.resumed?.checkpoints ?? new Map<string, BlockCheckpoint>();
  const memos = attempt.resumed?.memos ?? new Map<string, unknown>();
  const { checkpoints } = deps.repositories;
  const startBlocks = new Set(
    attempt.document.blocks.filter((block) => block.type === "start").map((block) => block.id),
  );
  return {
    ...(reused ? { reused: reused.results } : {}),
    ...(replay ? { replaying: true } : {}),
    restore: (key) => restored.get(key),
    recall: (key) => memos.get(key) ?? replay?.memos.get(key),
    async remember(key, value) {
      memos.set(key, value);
      await meter.storing(() =>
        recorder.flush(checkpoints.memoRow(attempt.run.id, key, value, redactor.redact(value))),
      );
    },
    async save(key, checkpoint) {
      const row = checkpoints.row(attempt.run.id, key, checkpoint, redactor.redact(checkpoint));
      // The start block's output is the run's input: run again after a crash it does the same and nothing else, so its
      // checkpoint goes with the run's next write (in order, with its events) rather than costing a round trip of its own.
      if (startBlocks.has(key)) return recorder.defer(row);
      // With the block's events and spans, in one write: a stream replayed after a crash shows what the checkpoint says.
      await meter.storing(() => recorder.flush(row));
    },
  };
}

/** A run resumed after its process died is watched for blocks that hold the event loop (run-watchdog.ts). */
function recoveredWatchdog(
  deps: ExecutionDependencies,
  attempt: RunAttempt,
  recorder: RunRecorder,
  stop: (error: RunStoppedError) => void,
): RunWatchdog | undefined {
  if (!attempt.durable || attempt.resumed?.reason !== "recovered") return undefined;
  const { run, document } = attempt;
  return new RunWatchdog({
    runId: run.id,
    worker: attempt.worker,
    memos: attempt.resumed.memos,
    // Masked like any memo: a count and a cause hold no secret, but the row goes through the same path.
    persist: (key, value) => recorder.flush(deps.repositories.checkpoints.memoRow(run.id, key, value, value)),
    stop,
    blockName: (blockId) => document.blocks.find((block) => block.id === blockId)?.name ?? blockId,
  });
}

/**
 * Executes one attempt at a stored run: events go to its channel at once and to storage in
 * batches, finished blocks are checkpointed (durable runs), and the run's row gets its end. What
 * the engine reports passes through the run's redactor before anything sees it.
 */
export function executeAttempt(deps: ExecutionDependencies, attempt: RunAttempt): AttemptHandle {
  const { repositories, signals } = deps;
  const { run } = attempt;
  const channel = new RunChannel(run.id, attempt.resumed?.lastSeq ?? 0);
  const redactor = new SecretRedactor();
  // The attempt's own signal, so that it can also be stopped from here (storage falling behind) and not only by the service.
  const stopper = new AbortController();
  const signal = AbortSignal.any([attempt.signal, stopper.signal]);
  const recorder = new RunRecorder(
    channel,
    { write: (write) => repositories.runWriter.write(write) },
    redactor,
    undefined,
    (seq) => signals?.events(run.id, seq),
    (waitingBytes) => stopper.abort(storageBehindError(waitingBytes)),
  );
  const watchdog = recoveredWatchdog(deps, attempt, recorder, (error) => stopper.abort(error));
  const meter = new RunOverheadMeter(Date.parse(run.queuedAt), Date.parse(run.startedAt));
  // Metrics (and traces, when OTLP is configured) read what the engine reports, masked, as the recorder does.
  const telemetry = runTelemetry(run, attempt.workspaceId, {
    redactor,
    workflowName: attempt.document.name,
    ...(attempt.traceParent ? { traceParent: attempt.traceParent } : {}),
  });
  const observer = {
    event: (event: Parameters<RunRecorder["event"]>[0]) => {
      watchdog?.observe(event);
      telemetry.event(event);
      recorder.event(event);
    },
    span: (span: Parameters<RunRecorder["span"]>[0]) => {
      meter.span(span);
      telemetry.span(span);
      recorder.span({ ...span, worker: attempt.worker });
    },
  };
  const done = (async (): Promise<RunRecord> => {
    let result: ExecutionResult;
    const startedAt = new Date(run.startedAt).getTime();
    try {
      // The setup only reads, so a database that is briefly away (a restart, a failover) delays the
      // run instead of failing it; the run's own signal (cancel, timeout) still ends the wait.
      const reading = <T>(read: () => Promise<T>) => retryWhileUnreachable(read, { signal });
      const setup = await reading(() => deps.prepare(attempt.workspaceId));
      for (const [name, value] of setup.secrets) redactor.add(name, value);
      const reused = await reading(async () => attempt.reused?.());
      for (const [name, value] of reused?.secrets ?? []) redactor.add(name, value);
      const replay = await reading(async () => attempt.replay?.());
      for (const [key, answer] of replay?.answers ?? [])
        if (!attempt.answers?.answerFor(key)) attempt.answers?.accept(key, answer);
      const elapsed = attempt.resumed ? Date.now() - startedAt - attempt.resumed.pausedMs : 0;
      const budget = await reading(() => spendLimits(repositories, attempt));
      // A block a dead process left running counts a trip; a second one stops the run before the block runs again.
      if (watchdog) await watchdog.countDeaths(await reading(() => repositories.spans.listByRun(run.id)));
      watchdog?.start();
      result = await executeWorkflow({
        document: attempt.document,
        lookupBlockType: setup.lookupBlockType,
        lookupHandler: telemetry.lookupHandler(setup.lookupHandler),
        env: setup.env,
        redactor,
        observer,
        runId: run.id,
        workflowId: run.workflowId,
        input: run.input,
        signal,
        runTimeoutMs: attempt.timeoutMs === undefined ? undefined : Math.max(1, attempt.timeoutMs - elapsed),
        depth: attempt.depth,
        ...(run.test ? { test: true } : {}),
        ...(budget ? { budget } : {}),
        ...(attempt.durable
          ? { checkpoints: checkpointStore(deps, attempt, recorder, redactor, reused, replay, meter) }
          : {}),
        ...(attempt.answers ? { answers: attempt.answers } : {}),
        ...(attempt.resumed ? { resume: { reason: attempt.resumed.reason, startedAt, worker: attempt.worker } } : {}),
      });
    } catch (error) {
      // executeWorkflow never throws for a failing run; this is a setup failure (e.g. secrets or a re-run's source results unreadable).
      const message = redactor.redactText(error instanceof Error ? error.message : String(error));
      observer.event({ type: "run.failed", runId: run.id, error: { code: "run_setup_failed", message } });
      result = {
        status: "failed",
        output: null,
        error: { code: "run_setup_failed", message },
        usage: emptyUsage(),
        durationMs: Date.now() - startedAt,
      };
    } finally {
      watchdog?.stopWatching();
    }
    if (result.status === "paused") {
      // Parked. No decision is recorded on this attempt after the hand-over, so the flush stores them all; then the
      // row says nobody holds the run, and an answer on any process resumes it.
      channel.handOver();
      await recorder.flush();
      const paused = await retryWhileUnreachable(() =>
        repositories.runs.update(
          run.id,
          { status: "paused", worker: null, usage: result.usage },
          { onlyIfStatus: ["running", "paused"] },
        ),
      );
      return paused ?? (await repositories.runs.get(attempt.workspaceId, run.id));
    }
    return storeRunEnd(
      { repositories, signals, recorder, redactor, run, workspaceId: attempt.workspaceId },
      result,
      startedAt,
      meter,
    );
  })();
  return { channel, recorder, redactor, done };
}

/**
 * ExecutionEngine: runs a workflow document as a graph of blocks.
 *
 * Activation model. The document is first compiled by the DAGBuilder (validated, disabled and
 * unreachable blocks removed, containers turned into nested scopes). A scope (the top level, or one
 * loop iteration or parallel branch) tracks, for each block, how many of its incoming edges are
 * still undecided. When a block settles, each of its outgoing edges is decided active or inactive:
 * `out` edges on success (for a condition only its chosen `branch:<id>` edge, for a router only the
 * `out` edge to its chosen block), `error` edges on a failure. A block whose edges are all decided
 * runs if any of them is active (so a join waits for its active inputs only) and is skipped
 * otherwise, with a `block.skipped` event, passing inactivity on. Ready blocks start at once, up to
 * the run's concurrency cap, so independent branches overlap in time.
 *
 * Ends. An unhandled failure stops new blocks in its scope; the blocks already running finish,
 * then the run (or the enclosing container) fails. A response block ends the run with its `data`
 * and aborts everything still running; so do cancellation (the caller's AbortSignal) and the run
 * timeout. Every running handler's own signal is aborted with them.
 */
import type { BlockTypeLookup } from "./block-type";
import { buildGraph } from "./dag-builder";
import {
  type WorkflowDocument,
  type ErrorInfo,
  type RunBudget,
  type RunEvent,
  type RunResumeReason,
  type Usage,
} from "@/contract";
import {
  type SpendLimits,
  CancelledError,
  errorInfo,
  RunParkedError,
  RunStoppedError,
  TimeoutError,
  type BlockHandlerLookup,
  emptyUsage,
} from "@/core";
import type { RunAnswers } from "./runtime/run-answers";
import type { CheckpointStore } from "./runtime/checkpoint-store";
import type { RunObserver } from "./events";
import type { WorkflowGraph } from "./graph";
import { OutputStore } from "./runtime/output-store";
import { RunContext, type Clock } from "./runtime/run-context";
import { ScopeRun, type ScopeResult } from "./runtime/scope-run";
import { SecretRedactor } from "./runtime/secret-redactor";
import { VariableScope } from "./runtime/variable-scope";

export const DEFAULT_CONCURRENCY = 16;

export interface ExecutionRequest {
  /** The document to run (already shape-checked with workflowDocumentSchema), or a graph built from it. */
  document: WorkflowDocument | WorkflowGraph;
  lookupBlockType: BlockTypeLookup;
  lookupHandler: BlockHandlerLookup;
  observer: RunObserver;
  runId: string;
  workflowId: string;
  /** The run's input object; the start block's output. */
  input?: Record<string, unknown>;
  /** Merged over the document's own variables. */
  variables?: Record<string, unknown>;
  /** `{{NAME}}`: a stored secret or an allowed environment variable; undefined when the run may not read one. */
  env?: (name: string) => string | undefined;
  /**
   * Masks secret values in everything the run reports (events, spans, its output and error): give
   * it every value `env` can return. Values read through `{{NAME}}` are added as they are read.
   */
  redactor?: SecretRedactor;
  /** Aborting it cancels the run and every running handler. */
  signal?: AbortSignal;
  idGenerator?: () => string;
  clock?: Clock;
  /** Handlers running at once in this run (default 16). Loop and parallel containers do not take a slot. */
  concurrency?: number;
  /** The run fails with a `timeout` error when it lasts longer. */
  runTimeoutMs?: number;
  /** Nesting depth when a workflow runs as a tool of another (0 at the top). */
  depth?: number;
  /** A durable run's finished blocks: restored instead of run, and stored as each block finishes. */
  checkpoints?: CheckpointStore;
  /** Where ask blocks find their answers (answers.ts); without it an ask block fails instead of waiting. */
  answers?: RunAnswers;
  /**
   * The run went on after a stop (its process died, a person answered): it reports `run.resumed`
   * instead of `run.started`, and its duration counts from `startedAt` (ms since the epoch), when it first started.
   */
  resume?: { reason: RunResumeReason; startedAt: number; worker?: string };
  /** A test run: side effects are answered from the blocks' samples and recorded answers replace model calls (simulation.ts). */
  test?: boolean;
  /** The caps every model call of the run is checked against (spend-ledger.ts); `shown` is the run's own cap, reported on `run.started`. */
  budget?: SpendLimits & { shown?: RunBudget };
}

export interface ExecutionResult {
  /** `paused`: it stopped to wait for a person and goes on later from its checkpoints. */
  status: "succeeded" | "failed" | "cancelled" | "paused";
  /** Masked like the events: a secret value never leaves the engine in clear. */
  output: unknown;
  error: ErrorInfo | null;
  usage: Usage;
  durationMs: number;
}

const systemClock: Clock = { now: () => Date.now() };

function isGraph(value: WorkflowDocument | WorkflowGraph): value is WorkflowGraph {
  return "nodesById" in value;
}

function usageFields(
  usage: Usage,
): Pick<Extract<RunEvent, { type: "run.completed" }>, "tokens" | "cost" | "unpriced" | "estimated"> {
  const fields: Pick<Extract<RunEvent, { type: "run.completed" }>, "tokens" | "cost" | "unpriced" | "estimated"> = {
    tokens: usage.tokens,
    cost: usage.cost,
  };
  if (usage.unpriced) fields.unpriced = true;
  if (usage.estimated) fields.estimated = true;
  return fields;
}

function safeEmit(observer: RunObserver, event: RunEvent): void {
  try {
    observer.event(event);
  } catch {
    // Observers must not change the run's outcome.
  }
}

function finish(run: RunContext, result: ScopeResult, durationMs: number): ExecutionResult {
  const { runId } = run.settings;
  const usage = run.usage;
  const halt = run.halt;
  let outcome: ExecutionResult;
  if (halt?.kind === "terminal" || result.status === "completed") {
    const output = run.redact(
      halt?.kind === "terminal" ? halt.data : result.status === "completed" ? result.output : null,
    );
    run.emit({ type: "run.completed", runId, output, durationMs, ...usageFields(usage) });
    outcome = { status: "succeeded", output, error: null, usage, durationMs };
  } else if (halt?.kind === "parked") {
    const pausedAt = new Date(run.now()).toISOString();
    for (const park of halt.parks) {
      const paused: RunEvent = {
        type: "run.paused",
        runId,
        blockId: park.blockId,
        spanId: park.spanId,
        reason: park.reason,
        pausedAt,
      };
      if (park.toolCallId) paused.toolCallId = park.toolCallId;
      if (park.question !== undefined) paused.question = park.question;
      if (park.choices) paused.choices = park.choices;
      run.emit(paused);
    }
    outcome = { status: "paused", output: null, error: null, usage, durationMs };
  } else if (halt?.kind === "cancelled") {
    run.emit({ type: "run.cancelled", runId });
    outcome = { status: "cancelled", output: null, error: run.redact(errorInfo(halt.error)), usage, durationMs };
  } else {
    let error: ErrorInfo;
    if (halt?.kind === "timeout" || halt?.kind === "stopped") error = errorInfo(halt.error);
    else if (result.status === "failed") {
      const info = errorInfo(result.error);
      error = { code: info.code, message: `Block '${result.node.name}' failed: ${info.message}` };
    } else error = { code: "internal_error", message: "The run stopped without finishing" };
    error = run.redact(error);
    run.emit({ type: "run.failed", runId, error });
    outcome = { status: "failed", output: null, error, usage, durationMs };
  }
  run.close();
  return outcome;
}

/** Runs one workflow to its end and reports everything through the observer. Never throws for a failing run. */
export async function executeWorkflow(request: ExecutionRequest): Promise<ExecutionResult> {
  const clock = request.clock ?? systemClock;
  const { observer, runId, workflowId, resume } = request;
  const startTime = resume?.startedAt ?? clock.now();
  const redactor = request.redactor ?? new SecretRedactor();
  if (resume) {
    const resumed: RunEvent = {
      type: "run.resumed",
      runId,
      reason: resume.reason,
      resumedAt: new Date(clock.now()).toISOString(),
    };
    if (resume.worker) resumed.worker = resume.worker;
    safeEmit(observer, resumed);
  } else {
    const started: RunEvent = { type: "run.started", runId, workflowId, startedAt: new Date(startTime).toISOString() };
    if (request.budget?.shown) started.budget = request.budget.shown;
    safeEmit(observer, started);
  }
  let graph: WorkflowGraph;
  try {
    graph = isGraph(request.document) ? request.document : buildGraph(request.document, request.lookupBlockType);
  } catch (caught) {
    const error = redactor.redact(errorInfo(caught));
    safeEmit(observer, { type: "run.failed", runId, error });
    return { status: "failed", output: null, error, usage: emptyUsage(), durationMs: clock.now() - startTime };
  }
  if (request.signal?.aborted) {
    safeEmit(observer, { type: "run.cancelled", runId });
    return {
      status: "cancelled",
      output: null,
      error: errorInfo(new CancelledError()),
      usage: emptyUsage(),
      durationMs: clock.now() - startTime,
    };
  }
  const run = new RunContext({
    graph,
    runId,
    workflowId,
    input: request.input ?? {},
    variables: { ...graph.document.variables, ...request.variables },
    env: request.env ?? (() => undefined),
    depth: request.depth ?? 0,
    lookupHandler: request.lookupHandler,
    observer,
    clock,
    newId: request.idGenerator ?? (() => crypto.randomUUID()),
    concurrency: request.concurrency ?? DEFAULT_CONCURRENCY,
    redactor,
    checkpoints: request.checkpoints,
    answers: request.answers,
    ...(request.test ? { test: true } : {}),
    ...(request.budget ? { budget: request.budget } : {}),
  });
  const onAbort = () => {
    const reason: unknown = request.signal?.reason;
    // Asks waiting elsewhere in the run wait on with it: each is reported with the park.
    if (reason instanceof RunParkedError)
      run.haltRun({ kind: "parked", parks: [reason.park, ...run.waitingParks()], error: reason });
    else if (reason instanceof RunStoppedError) run.haltRun({ kind: "stopped", error: reason });
    else run.haltRun({ kind: "cancelled", error: new CancelledError() });
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    request.runTimeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            run.haltRun({
              kind: "timeout",
              error: new TimeoutError(`The run took longer than its limit of ${request.runTimeoutMs} ms`),
            }),
          request.runTimeoutMs,
        );
  try {
    const root = new ScopeRun(
      run,
      graph.root,
      new OutputStore(),
      null,
      [],
      run.stop.child(),
      null,
      new VariableScope(graph.root, run.settings.variables),
    );
    const result = await root.execute();
    return finish(run, result, clock.now() - startTime);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}

/** Class form holding what stays the same across runs (the block registry and handlers). */
export class ExecutionEngine {
  constructor(
    private readonly defaults: Pick<ExecutionRequest, "lookupBlockType" | "lookupHandler"> & Partial<ExecutionRequest>,
  ) {}

  execute(
    request: Omit<ExecutionRequest, "lookupBlockType" | "lookupHandler"> &
      Partial<Pick<ExecutionRequest, "lookupBlockType" | "lookupHandler">>,
  ): Promise<ExecutionResult> {
    return executeWorkflow({ ...this.defaults, ...request } as ExecutionRequest);
  }
}

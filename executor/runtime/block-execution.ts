import type { IssueDetail } from "@/contract";
import {
  BlockExecutionError,
  invalidConfigError,
  type BlockResult,
  type BoundHandler,
  type HandlerContext,
  type PreparedBlockCall,
  createSimulation,
} from "@/core";
import { routeOutput } from "../edge-routing";
import { edgeLabel, type GraphNode } from "../graph";
import { resolveConfig } from "../references";
import { AttemptsError, runWithPolicy } from "./block-attempts";
import { createReferenceSource } from "./reference-source";
import type { RunContext } from "./run-context";
import { waitForAnswer, type HeldSlot } from "./answers";
import { blockMemo } from "./checkpoints";
import { checkpointKey } from "./checkpoint-store";
import type { SecretStream } from "./secret-redactor";
import { BlockSpan } from "./spans";
import { reportFailure, reportInterrupted, withSpent } from "./failure-report";
import type { BlockOutcome, ExecutionPlace } from "./execution-place";

export type { BlockOutcome, ExecutionPlace } from "./execution-place";

const expressionFieldSets = new WeakMap<object, ReadonlySet<string>>();

function expressionFields(node: GraphNode): ReadonlySet<string> | undefined {
  const fields = node.info.expressionFields;
  if (!fields || fields.length === 0) return undefined;
  let set = expressionFieldSets.get(fields);
  if (!set) expressionFieldSets.set(fields, (set = new Set(fields)));
  return set;
}

/** Resolves the references in a block's config (the config itself when it has none). */
export function resolveBlockConfig(
  place: ExecutionPlace,
  node: GraphNode,
  config: Record<string, unknown> = node.block.config,
): Record<string, unknown> {
  if (!node.hasReferences) return config;
  const { run } = place;
  const source = createReferenceSource(run, place.store, place.frame, node, place.variables.visibleTo(node));
  return resolveConfig(config, source, {
    onSecret: (name, value) => run.redactor.add(name, value),
    expressionFields: expressionFields(node),
    fieldResolvers: node.info.fieldResolvers,
  });
}

/**
 * Parses the resolved config once, with the block type's parser bound to the handler: the handler
 * gets the typed value with defaults applied. A config valid at save time can still fail here when
 * a reference brought in a value of the wrong type.
 */
function prepareCall(
  run: RunContext,
  node: GraphNode,
  handler: BoundHandler,
  config: Record<string, unknown>,
): PreparedBlockCall {
  const prepared = handler.prepare(config);
  if (prepared.ok) return prepared.value;
  throw configProblem(run, node, prepared.issues);
}

/** The `invalid_config` error naming the block and each field its type's parser refused, secrets masked. */
export function configProblem(
  run: RunContext,
  node: GraphNode,
  issues: ReadonlyArray<IssueDetail>,
): BlockExecutionError {
  return invalidConfigError(
    node.name,
    // The message names each field as people see it (its label); the error's text carries no paths.
    issues.map((issue) => ({
      path: (issue.path && node.info.describeConfigPath?.(issue.path)) || issue.path,
      message: run.redactText(issue.message),
    })),
    node.hasReferences,
  );
}

function checkRouting(node: GraphNode, output: Record<string, unknown>): void {
  const routing = node.info.routing;
  if (routing === "branch") {
    const selected = output.selectedBranch;
    if (selected === null || selected === undefined) return;
    if (typeof selected !== "string" || !node.info.sourceHandles(node.block).includes(`branch:${selected}`))
      throw new BlockExecutionError(
        `Block '${node.name}' chose branch ${JSON.stringify(selected)}, which it does not have`,
      );
  } else if (routing === "route") {
    const selected = output.selectedRoute;
    if (selected === null || selected === undefined) return;
    if (!node.outgoingTargets.some((target) => target.id === selected)) {
      const options = node.outgoingTargets.map((target) => `'${target.id}'`).join(", ") || "none";
      throw new BlockExecutionError(
        `Block '${node.name}' chose route ${JSON.stringify(selected)}, which is not one of its connected blocks (${options})`,
      );
    }
  }
}

function checkResult(node: GraphNode, result: unknown): BlockResult {
  const output = (result as BlockResult | undefined)?.output;
  if (output === null || typeof output !== "object" || Array.isArray(output))
    throw new BlockExecutionError(`The handler of block '${node.name}' returned no output object`);
  return result as BlockResult;
}

/**
 * A block's streamed text, masked across chunk boundaries: each delta shows what is safe now and
 * the held-back tail follows with the next delta, or when the block ends (`end`). Deltas after the
 * end are dropped. The masking stream is made at the first delta: most blocks stream nothing.
 */
class DeltaStream {
  private masked: SecretStream | undefined;
  private open = true;

  constructor(
    private readonly run: RunContext,
    private readonly node: GraphNode,
    private readonly span: BlockSpan,
  ) {}

  push(text: string): void {
    if (!this.open) return;
    this.masked ??= this.run.redactor.stream();
    this.send(this.masked.push(text));
  }

  end(): void {
    if (!this.open) return;
    this.open = false;
    if (this.masked) this.send(this.masked.end());
  }

  private send(text: string): void {
    if (text)
      this.run.emit({
        type: "block.delta",
        runId: this.run.settings.runId,
        blockId: this.node.id,
        spanId: this.span.id,
        text,
      });
  }
}

function handlerContext(
  place: ExecutionPlace,
  node: GraphNode,
  span: BlockSpan,
  deltas: DeltaStream,
  slot: HeldSlot,
): Omit<HandlerContext, "signal"> {
  const { run } = place;
  const { settings } = run;
  const context: Omit<HandlerContext, "signal"> = {
    runId: settings.runId,
    workflowId: settings.workflowId,
    block: node.block,
    spanId: span.id,
    emitDelta: (text) => deltas.push(text),
    startSpan: (options) => span.child(options),
    outgoingTargets: node.outgoingTargets,
    variables: place.variables.visibleTo(node),
    depth: settings.depth,
    runInput: settings.input,
    iteration: place.iteration,
    waitForAnswer: (request, signal) => waitForAnswer(place, node, span, request, signal, slot),
  };
  const memo =
    settings.checkpoints &&
    blockMemo(settings.checkpoints, checkpointKey(node.id, place.iteration, place.attempt(node)));
  if (memo) context.memo = memo;
  // A refused call stops the whole run (not just the block): an error edge must not route around a spent budget.
  if (run.ledger) context.budget = run.ledger.forBlock(node.name, (error) => run.haltRun({ kind: "stopped", error }));
  if (settings.test)
    context.simulation = createSimulation(node.name, node.block.testing, (source) => span.markSimulated(source));
  return context;
}

/** Runs one handler block: resolve its config, call its handler under its policy, report events and spans. */
export async function executeBlock(
  place: ExecutionPlace,
  node: GraphNode,
  inputs: Readonly<Record<string, unknown>>,
): Promise<BlockOutcome> {
  const { run } = place;
  const waiting = run.semaphore.acquire();
  if (waiting) await waiting;
  const slot: HeldSlot = { held: true };
  try {
    if (place.stop.stopped) return { status: "notRun" };
    // An ask asked in an earlier attempt keeps its span (its name in the API) until it is answered.
    const earlier = run.settings.answers?.earlierAsk(checkpointKey(node.id, place.iteration));
    const span = new BlockSpan(
      run,
      node,
      place.parentSpanId,
      place.iteration,
      earlier && { id: earlier.spanId, startedAt: earlier.requestedAt },
    );
    const runId = run.settings.runId;
    const started: Parameters<RunContext["emit"]>[0] = {
      type: "block.started",
      runId,
      blockId: node.id,
      blockName: node.name,
      blockType: node.block.type,
      spanId: span.id,
      startedAt: span.startedAt,
    };
    if (place.iteration.length > 0) started.iteration = [...place.iteration];
    const attempt = place.attempt(node);
    if (attempt > 0) started.attempt = span.record.attempt = attempt;
    run.emit(started);
    let config: Record<string, unknown>;
    try {
      config = resolveBlockConfig(place, node);
    } catch (error) {
      span.open();
      return { status: "failed", error, route: reportFailure(run, node, span, error) };
    }
    span.open(config);
    const handler = run.settings.lookupHandler(node.block.type);
    if (!handler) {
      const error = new BlockExecutionError(
        `No handler is registered for block type '${node.block.type}' (block '${node.name}')`,
      );
      return { status: "failed", error, route: reportFailure(run, node, span, error) };
    }
    let call: PreparedBlockCall;
    try {
      call = prepareCall(run, node, handler, config);
    } catch (error) {
      return { status: "failed", error, route: reportFailure(run, node, span, error) };
    }
    const recorded = run.settings.test ? node.block.testing?.recorded : undefined;
    if (recorded) {
      // A test run with a recorded answer chosen: the block answers what it answered in that run, and calls no model.
      span.markSimulated("recorded");
      call = async () => ({ output: structuredClone(recorded.output) });
    }
    const deltas = new DeltaStream(run, node, span);
    try {
      const { result, attempts } = await runWithPolicy(
        run,
        node,
        call,
        inputs,
        handlerContext(place, node, span, deltas, slot),
      );
      deltas.end();
      if (run.halt) {
        reportInterrupted(run, node, span);
        return { status: "notRun" };
      }
      const checked = checkResult(node, result);
      let routes: boolean[];
      try {
        checkRouting(node, checked.output);
        // Edge conditions are evaluated before the block reports success: one that cannot be evaluated fails the block.
        routes = place.capRetries(node, routeOutput(node.info, node.block, checked.output, node.outEdges, edgeLabel));
      } catch (error) {
        throw withSpent(error, checked.usage);
      }
      if (checked.usage) run.addUsage(checked.usage);
      const durationMs = span.close(
        "succeeded",
        attempts > 1
          ? { output: checked.output, usage: checked.usage, attempts }
          : { output: checked.output, usage: checked.usage },
      );
      const completed: Parameters<RunContext["emit"]>[0] = {
        type: "block.completed",
        runId,
        blockId: node.id,
        spanId: span.id,
        output: checked.output,
        durationMs,
      };
      if (span.record.simulated) completed.simulated = span.record.simulated;
      if (checked.usage) {
        completed.tokens = checked.usage.tokens;
        completed.cost = checked.usage.cost;
        if (checked.usage.unpriced) completed.unpriced = true;
        if (checked.usage.estimated) completed.estimated = true;
      }
      run.emit(completed);
      return checked.usage
        ? { status: "completed", output: checked.output, usage: checked.usage, routes }
        : { status: "completed", output: checked.output, routes };
    } catch (caught) {
      deltas.end();
      if (run.halt) {
        reportInterrupted(run, node, span);
        return { status: "notRun" };
      }
      const error = caught instanceof AttemptsError ? caught.error : caught;
      return {
        status: "failed",
        error,
        route: reportFailure(run, node, span, error, caught instanceof AttemptsError ? caught.attempts : undefined),
      };
    }
  } finally {
    if (slot.held) run.semaphore.release();
  }
}

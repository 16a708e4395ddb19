import type { Usage } from "@/contract";
import { BlockExecutionError, errorInfo, TrellisError } from "@/core";
import { routeOutput } from "../edge-routing";
import { edgeLabel, type GraphNode, type GraphScope } from "../graph";
import type { BlockOutcome, ExecutionPlace } from "./block-execution";
import { reportFailure, reportInterrupted } from "./failure-report";
import { addSpent } from "./checkpoints";
import type { IterationFrame } from "./frames";
import { planIterations, whileHolds, type IterationPlan } from "./iteration-plan";
import { YieldPoint } from "./yield-point";
import { OutputStore } from "./output-store";
import type { RunContext } from "./run-context";
// eslint-disable-next-line import-x/no-cycle -- the one recursion: a container runs its body as a scope, whose blocks may be containers
import { ScopeRun, type ScopeResult } from "./scope-run";
import { BlockSpan } from "./spans";
import { VariableScope } from "./variable-scope";

/**
 * Loop and parallel containers, run by the engine itself. Each iteration (or branch) runs the
 * container's body as its own scope with its own output store, stop token and iteration index;
 * the container's output is `{ results }`, one entry per iteration: the output of the block where
 * the iteration's path ended (or an object by normalized block name when several paths ended).
 * An unhandled failure inside stops the container (no new iterations; running branches finish)
 * and fails it with an error naming the iteration and the block, which the container's own
 * `error` edge can take. After the container, blocks outside read inner blocks' outputs from
 * the last iteration.
 *
 * Workflow variables: every iteration and branch starts from the values the container block itself
 * sees. A loop's iteration also starts with the assignments of the iterations before it, so a loop
 * can accumulate (`count = <variable.count> + 1`), and blocks after the loop see all of its
 * assignments. Parallel branches are isolated: each starts from the container's values, and their
 * assignments stay inside the branch (collect values through the container's `results`).
 */

type ContainerResult =
  | { kind: "completed"; results: unknown[]; lastStore: OutputStore | null; assigned?: Record<string, unknown> }
  | { kind: "failed"; index: number; result: Extract<ScopeResult, { status: "failed" }> }
  | { kind: "halted" };

/** Emits `block.skipped` for every block inside a scope (and inside containers in it). */
export function skipScope(run: RunContext, scope: GraphScope, reason: string): void {
  for (const node of scope.nodes) {
    run.emit({ type: "block.skipped", runId: run.settings.runId, blockId: node.id, reason });
    if (node.body) skipScope(run, node.body, reason);
  }
}

/**
 * What a container's iterations spent so far (kept with its checkpoint, since restoring the
 * container runs none of them), and how many of them run now: while any does, the container
 * itself is not busy (its blocks are), so a run whose only work left is waiting asks can park.
 */
interface Spent {
  usage: Usage | undefined;
  running: number;
}

async function runIteration(
  place: ExecutionPlace,
  node: GraphNode,
  frame: IterationFrame,
  store: OutputStore,
  variables: VariableScope,
  spanId: string,
  spent: Spent,
  stop = place.stop.child(),
): Promise<ScopeResult> {
  const scope = new ScopeRun(
    place.run,
    node.body!,
    store,
    frame,
    [...place.iteration, frame.index],
    stop,
    spanId,
    variables,
  );
  if (spent.running++ === 0) place.run.busyBy(-1);
  try {
    return await scope.execute();
  } finally {
    if (--spent.running === 0) place.run.busyBy(1);
    spent.usage = addSpent(spent.usage, scope.spent);
  }
}

async function runLoop(
  place: ExecutionPlace,
  node: GraphNode,
  plan: IterationPlan,
  spanId: string,
  spent: Spent,
): Promise<ContainerResult> {
  const results: unknown[] = [];
  let lastStore: OutputStore | null = null;
  const outside = place.variables.visibleTo(node);
  const assigned: Record<string, unknown> = {};
  const yieldPoint = new YieldPoint();
  for (let index = 0; ; index += 1) {
    await yieldPoint.pass();
    const variables = new VariableScope(node.body!, { ...outside, ...assigned });
    if (place.stop.stopped) return { kind: "halted" };
    const frame: IterationFrame = {
      kind: "loop",
      container: node,
      index,
      item: plan.items ? plan.items[index] : null,
      results,
      parent: place.frame,
    };
    if (plan.items) {
      if (index >= plan.items.length) break;
    } else {
      if (!whileHolds(place, node, plan.condition!, frame, lastStore ?? place.store, variables.start)) break;
      if (index >= plan.maxIterations)
        throw new BlockExecutionError(
          `Loop '${node.name}' was still running after its limit of ${plan.maxIterations} iterations (maxIterations)`,
          {
            code: "iteration_limit",
          },
        );
    }
    const store = new OutputStore(place.store);
    const result = await runIteration(place, node, frame, store, variables, spanId, spent);
    if (result.status === "halted" || result.status === "stopped") return { kind: "halted" };
    if (result.status === "failed") return { kind: "failed", index, result };
    results.push(result.output);
    lastStore = store;
    Object.assign(assigned, variables.assignments());
  }
  return { kind: "completed", results, lastStore, assigned };
}

async function runParallel(
  place: ExecutionPlace,
  node: GraphNode,
  plan: IterationPlan,
  spanId: string,
  spent: Spent,
): Promise<ContainerResult> {
  const items = plan.items ?? [];
  const results = new Array<unknown>(items.length).fill(null);
  const stores = new Array<OutputStore | null>(items.length).fill(null);
  const group = place.stop.child();
  const outside = place.variables.visibleTo(node);
  let next = 0;
  let failure: Extract<ContainerResult, { kind: "failed" }> | null = null;
  let halted = false;
  const yieldPoint = new YieldPoint();
  const worker = async (): Promise<void> => {
    while (next < items.length && !group.stopped) {
      await yieldPoint.pass();
      if (next >= items.length || group.stopped) break;
      const index = next;
      next += 1;
      const frame: IterationFrame = {
        kind: "parallel",
        container: node,
        index,
        item: items[index],
        results: [],
        parent: place.frame,
      };
      const store = new OutputStore(place.store);
      const variables = new VariableScope(node.body!, outside);
      const result = await runIteration(place, node, frame, store, variables, spanId, spent, group.child());
      if (result.status === "halted") halted = true;
      else if (result.status === "stopped") continue;
      else if (result.status === "failed") {
        failure ??= { kind: "failed", index, result };
        group.stop();
      } else {
        results[index] = result.output;
        stores[index] = store;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(plan.concurrency, items.length) }, worker));
  if (place.run.halt || halted) return { kind: "halted" };
  if (failure) return failure;
  return { kind: "completed", results, lastStore: stores.findLast((store) => store !== null) ?? null };
}

function iterationError(node: GraphNode, failed: Extract<ContainerResult, { kind: "failed" }>): TrellisError {
  const info = errorInfo(failed.result.error);
  const what = node.info.container === "loop" ? "Iteration" : "Branch";
  return new BlockExecutionError(
    `${what} ${failed.index} of '${node.name}' failed at block '${failed.result.node.name}': ${info.message}`,
    {
      code: info.code,
      cause: failed.result.error,
    },
  );
}

/** Runs a container block; reports its events and span like any block. */
export async function executeContainer(
  place: ExecutionPlace,
  node: GraphNode,
  _inputs: Readonly<Record<string, unknown>>,
): Promise<BlockOutcome> {
  const { run } = place;
  if (place.stop.stopped) return { status: "notRun" };
  const span = new BlockSpan(run, node, place.parentSpanId, place.iteration);
  const runId = run.settings.runId;
  run.emit({
    type: "block.started",
    runId,
    blockId: node.id,
    blockName: node.name,
    blockType: node.block.type,
    spanId: span.id,
    startedAt: span.startedAt,
    ...(place.iteration.length > 0 ? { iteration: [...place.iteration] } : {}),
  });
  let outcome: ContainerResult;
  const spent: Spent = { usage: undefined, running: 0 };
  const usage = () => (spent.usage ? { usage: spent.usage } : {});
  try {
    const plan = planIterations(place, node);
    span.open(plan.config);
    if (plan.items?.length === 0) skipScope(run, node.body!, `'${node.name}' ran no iterations`);
    outcome =
      node.info.container === "loop"
        ? await runLoop(place, node, plan, span.id, spent)
        : await runParallel(place, node, plan, span.id, spent);
  } catch (error) {
    if (run.halt) {
      reportInterrupted(run, node, span);
      return { status: "notRun" };
    }
    return { status: "failed", error, route: reportFailure(run, node, span, error), ...usage() };
  }
  if (outcome.kind === "halted") {
    if (run.halt) reportInterrupted(run, node, span);
    else {
      // A block outside failed with no error edge: this container stops between iterations.
      span.close("cancelled");
      run.emit({ type: "block.skipped", runId, blockId: node.id, reason: "stopped because another block failed" });
    }
    return { status: "notRun" };
  }
  if (outcome.kind === "failed") {
    const error = iterationError(node, outcome);
    return { status: "failed", error, route: reportFailure(run, node, span, error), ...usage() };
  }
  const output = { results: outcome.results };
  let routes: boolean[];
  try {
    // Before the container reports success (and is checkpointed as completed): a condition that cannot be evaluated fails it.
    routes = routeOutput(node.info, node.block, output, node.outEdges, edgeLabel);
  } catch (error) {
    return { status: "failed", error, route: reportFailure(run, node, span, error), ...usage() };
  }
  outcome.lastStore?.copyInto(place.store);
  const durationMs = span.close("succeeded", { output });
  run.emit({ type: "block.completed", runId, blockId: node.id, spanId: span.id, output, durationMs });
  const assigned = outcome.assigned && Object.keys(outcome.assigned).length > 0 ? { variables: outcome.assigned } : {};
  return { status: "completed", output, inner: outcome.lastStore?.entries() ?? [], routes, ...usage(), ...assigned };
}

import { routeOutput } from "../edge-routing";
import { edgeLabel, type GraphEdge, type GraphNode, type GraphScope, type RetryCycle } from "../graph";
import type { Usage } from "@/contract";
import { addSpent, runCheckpointed, usageOf } from "./checkpoints";
import { executeBlock, type BlockOutcome, type ExecutionPlace } from "./block-execution";
// eslint-disable-next-line import-x/no-cycle -- the one recursion: a container runs its body as a scope, whose blocks may be containers
import { executeContainer, skipScope } from "./container-run";
import { routeFailed, type FailureRoute } from "./failure-report";
import { frameInput, type IterationFrame } from "./frames";
import { exhaustedRoutes, retryPasses, type RetryPass } from "./retry-passes";
import type { OutputStore } from "./output-store";
import type { RunContext } from "./run-context";
import type { StopToken } from "./stop-token";
import type { VariableScope } from "./variable-scope";

export type ScopeResult =
  | { status: "completed"; output: unknown }
  | { status: "failed"; node: GraphNode; error: unknown }
  /** The run halted (response block, cancellation, timeout) before the scope finished. */
  | { status: "halted" }
  /** A failure outside (in the scope around, or a sibling parallel branch) stopped this scope early. */
  | { status: "stopped" };

/**
 * Runs the blocks of one scope (the top level, or one loop iteration / parallel branch) by edge
 * activation. Every edge into a block is undecided until its source settles; a block is decided
 * when all its incoming edges are: it runs if at least one is active, otherwise it is skipped and
 * its own outgoing edges become inactive in turn. Blocks whose inputs are complete start at once,
 * so independent branches run concurrently. State lives in typed arrays indexed by the block's
 * position in its scope, so each step costs O(edges of that block).
 */
export class ScopeRun implements ExecutionPlace {
  readonly run: RunContext;
  private readonly undecided: Int32Array;
  private readonly activated: Uint8Array;
  private readonly activeSources: Array<string[] | undefined>;
  private readonly sinks: GraphNode[] = [];
  private inFlight = 0;
  private failure: { node: GraphNode; error: unknown } | null = null;
  private finish: (() => void) | null = null;
  /** Each retry cycle's pass, by `RetryCycle.index`; null when the scope has none. */
  private readonly passes: RetryPass[] | null;
  /**
   * Cycles whose tail settled, ended once the block being settled has decided all its edges: a tail
   * skipped while another block of its cycle is still deciding must not end the pass before that
   * block's edges leaving the cycle are held.
   */
  private readonly endedPasses: RetryCycle[] | null;
  /** What the blocks of this scope spent, restored ones included: a container keeps its iterations' sum with its checkpoint. */
  spent: Usage | undefined;

  constructor(
    run: RunContext,
    readonly scope: GraphScope,
    readonly store: OutputStore,
    readonly frame: IterationFrame | null,
    readonly iteration: ReadonlyArray<number>,
    readonly stop: StopToken,
    readonly parentSpanId: string | null,
    readonly variables: VariableScope,
  ) {
    this.run = run;
    const size = scope.nodes.length;
    this.undecided = new Int32Array(size);
    this.activated = new Uint8Array(size);
    this.activeSources = new Array<string[] | undefined>(size);
    for (let index = 0; index < size; index += 1) this.undecided[index] = scope.nodes[index]!.inEdges.length;
    this.passes = retryPasses(scope.retryCycles);
    this.endedPasses = this.passes === null ? null : [];
  }

  attempt(node: GraphNode): number {
    return node.cycle === null ? 0 : this.passes![node.cycle.index]!.pass;
  }

  capRetries(node: GraphNode, routes: boolean[]): boolean[] {
    const cycle = node.cycle;
    if (cycle === null || cycle.tail !== node || routes[node.outEdges.indexOf(cycle.edge)] !== true) return routes;
    return this.passes![cycle.index]!.pass > cycle.maxRetries ? exhaustedRoutes(cycle, routes) : routes;
  }

  /** Runs the scope to its end. */
  async execute(): Promise<ScopeResult> {
    const done = new Promise<void>((resolve) => (this.finish = resolve));
    const container = this.scope.container;
    if (container) {
      for (const edge of container.bodyEdges) this.decide(edge, true);
      if (this.endedPasses !== null) this.endPasses();
    } else {
      this.launch(this.run.graph.entry);
    }
    if (this.inFlight > 0) await done;
    if (this.run.halt) return { status: "halted" };
    if (this.failure) return { status: "failed", ...this.failure };
    if (this.stop.stopped) return { status: "stopped" };
    return { status: "completed", output: this.sinkOutput() };
  }

  /** Output of the blocks where the scope's paths ended: one block's output, or an object by normalized block name. */
  private sinkOutput(): unknown {
    if (this.sinks.length === 0) return null;
    if (this.sinks.length === 1) {
      const stored = this.store.get(this.sinks[0]!.id);
      return stored?.kind === "output" ? stored.output : null;
    }
    const result: Record<string, unknown> = {};
    for (const sink of this.sinks) {
      const stored = this.store.get(sink.id);
      if (stored?.kind === "output") result[sink.normalizedName] = stored.output;
    }
    return result;
  }

  private decide(edge: GraphEdge, active: boolean): void {
    // Retry cycles: the edge back starts another pass when the tail settles; edges leaving wait for the last pass.
    if (edge.retry !== null) {
      if (active) this.passes![edge.retry.index]!.retry = true;
      return;
    }
    if (edge.leaves !== null) {
      this.passes![edge.leaves.index]!.held.push([edge, active]);
      return;
    }
    this.decideNow(edge, active);
  }

  private decideNow(edge: GraphEdge, active: boolean): void {
    const target = edge.target;
    const index = target.localIndex;
    if (active) {
      this.activated[index] = 1;
      const sources = this.activeSources[index];
      if (sources) sources.push(edge.source.id);
      else this.activeSources[index] = [edge.source.id];
    }
    const remaining = this.undecided[index]! - 1;
    this.undecided[index] = remaining;
    if (remaining !== 0) return;
    if (this.activated[index] === 1) this.launch(target);
    else this.skip(target, `on a path not taken after '${edge.source.name}'`);
  }

  /** Skips a block and, through a worklist, everything that only it could have activated. */
  private skip(first: GraphNode, firstReason: string): void {
    const work: Array<[GraphNode, string]> = [[first, firstReason]];
    while (work.length > 0) {
      const [node, reason] = work.pop()!;
      this.store.setSkipped(node.id, reason);
      this.run.emit({ type: "block.skipped", runId: this.run.settings.runId, blockId: node.id, reason });
      if (node.body) skipScope(this.run, node.body, `its container '${node.name}' was skipped`);
      for (const edge of node.outEdges) {
        if (edge.retry !== null) continue;
        if (edge.leaves !== null) {
          this.passes![edge.leaves.index]!.held.push([edge, false]);
          continue;
        }
        const index = edge.target.localIndex;
        const remaining = this.undecided[index]! - 1;
        this.undecided[index] = remaining;
        if (remaining !== 0) continue;
        if (this.activated[index] === 1) this.launch(edge.target);
        else work.push([edge.target, `on a path not taken after '${node.name}'`]);
      }
      if (node.cycle !== null && node.cycle.tail === node) this.endedPasses!.push(node.cycle);
    }
  }

  private endPasses(): void {
    const ended = this.endedPasses!;
    while (ended.length > 0) this.endPass(ended.shift()!);
  }

  /**
   * A cycle's tail settled, so its pass is over: the next pass starts at the head when the edge back
   * was taken (the cycle's blocks undecided again, their outputs kept until each runs again), else
   * the cycle is done and the edges that leave it are decided as its last pass left them.
   */
  private endPass(cycle: RetryCycle): void {
    const state = this.passes![cycle.index]!;
    if (!state.retry) {
      for (const [edge, active] of state.release()) this.decideNow(edge, active);
      return;
    }
    state.next();
    for (const node of cycle.nodes) {
      if (node === cycle.head) continue;
      const index = node.localIndex;
      this.undecided[index] = node.inEdges.length;
      this.activated[index] = 0;
      this.activeSources[index] = undefined;
    }
    if (this.stop.stopped) return;
    const inputs = this.inputsOf(cycle.head);
    const back = this.store.get(cycle.tail.id);
    inputs[cycle.tail.id] = back?.kind === "output" ? back.output : null;
    this.inFlight += 1;
    this.run.busyBy(1);
    void this.runNode(cycle.head, inputs);
  }

  private inputsOf(node: GraphNode): Record<string, unknown> {
    const inputs: Record<string, unknown> = {};
    for (const sourceId of this.activeSources[node.localIndex] ?? []) {
      // A body block's input from its container is the iteration: `{index, item}`.
      if (this.frame && sourceId === this.scope.container?.id) {
        inputs[sourceId] = frameInput(this.frame);
        continue;
      }
      const stored = this.store.get(sourceId);
      inputs[sourceId] = stored?.kind === "output" ? stored.output : null;
    }
    return inputs;
  }

  private launch(node: GraphNode): void {
    if (this.stop.stopped) return;
    this.inFlight += 1;
    this.run.busyBy(1);
    void this.runNode(node, this.inputsOf(node));
  }

  private async runNode(node: GraphNode, inputs: Record<string, unknown>): Promise<void> {
    let outcome: BlockOutcome;
    try {
      outcome = this.run.settings.checkpoints
        ? await runCheckpointed(this, node, () => this.executeNode(node, inputs))
        : await this.executeNode(node, inputs);
    } catch (error) {
      outcome = { status: "failed", error };
    }
    this.settle(node, outcome);
  }

  private executeNode(node: GraphNode, inputs: Record<string, unknown>): Promise<BlockOutcome> {
    return node.info.container ? executeContainer(this, node, inputs) : executeBlock(this, node, inputs);
  }

  private settle(node: GraphNode, outcome: BlockOutcome): void {
    this.inFlight -= 1;
    this.spent = addSpent(this.spent, usageOf(outcome));
    if (outcome.status === "completed") this.completed(node, outcome.output, outcome.variables, outcome.routes);
    else if (outcome.status === "failed") this.failed(node, outcome.error, outcome.route);
    if (this.endedPasses !== null) this.endPasses();
    // After what follows it has launched: only then may the run count itself idle.
    this.run.busyBy(-1);
    if (this.inFlight === 0) this.finish?.();
  }

  /**
   * `assigned`: a loop's assignments to workflow variables. `routes`: which out edges the output activates, when the
   * block's execution already worked it out (a restored checkpoint has none: its routes are worked out here).
   */
  private completed(
    node: GraphNode,
    output: Record<string, unknown>,
    assigned: Record<string, unknown> | undefined,
    routes?: ReadonlyArray<boolean>,
  ): void {
    if (!routes && !node.info.terminal) {
      try {
        routes = this.capRetries(node, routeOutput(node.info, node.block, output, node.outEdges, edgeLabel));
      } catch (error) {
        // An edge condition that cannot be evaluated fails its source block, here as where the block ran: its error edge may take it.
        this.failed(node, error);
        return;
      }
    }
    this.store.setOutput(node.id, output);
    // A Set Variables block's output is what it assigned; a loop carries its iterations' assignments out.
    if (node.info.assignsVariables) this.variables.record(node, output);
    else if (assigned) this.variables.record(node, assigned);
    if (node.info.terminal) {
      this.run.haltRun({
        kind: "terminal",
        blockName: node.name,
        data: output.data ?? null,
        error: new Error(`The run ended at response block '${node.name}'`),
      });
      return;
    }
    let activatedAny = false;
    const edges = node.outEdges;
    for (let index = 0; index < edges.length; index += 1) {
      const active = routes![index] === true;
      activatedAny ||= active;
      this.decide(edges[index]!, active);
    }
    if (!activatedAny) this.sinks.push(node);
    if (node.cycle !== null && node.cycle.tail === node) this.endedPasses!.push(node.cycle);
  }

  /** `route`: where the failure goes, when it was worked out as the failure was reported (so the two agree). */
  private failed(node: GraphNode, error: unknown, route: FailureRoute = routeFailed(this.run, node, error)): void {
    if ("unhandled" in route) {
      // No error edge takes it: start nothing new in this scope; blocks already running finish first.
      this.failure ??= { node, error: route.unhandled };
      this.stop.stop();
      return;
    }
    let routes = route.routes;
    if (node.cycle !== null) {
      try {
        routes = this.capRetries(node, routes);
      } catch (exhausted) {
        // Its error edge goes back and its retries are used up: the failure is no longer handled.
        this.failure ??= { node, error: exhausted };
        this.stop.stop();
        return;
      }
    }
    this.store.setOutput(node.id, route.output);
    node.outEdges.forEach((edge, index) => this.decide(edge, routes[index] === true));
    if (node.cycle !== null && node.cycle.tail === node) this.endedPasses!.push(node.cycle);
  }
}

import { RETRIES_EXHAUSTED_HANDLE } from "@/contract";
import { BlockExecutionError } from "@/core";
import { edgeLabel, type GraphEdge, type RetryCycle } from "../graph";

/**
 * Where one run of a scope is in each of its retry cycles (graph.ts `RetryCycle`). A pass runs the
 * cycle's blocks once; when its tail takes the edge back, the next pass starts at the head. What
 * leaves the cycle is held until the last pass ends, so the blocks after a cycle run once, after
 * its last pass, and read that pass's outputs.
 */
export class RetryPass {
  /** 1 for the first pass. */
  pass = 1;
  /** The edge back was taken in this pass. */
  retry = false;
  /** This pass's decisions about the edges that leave the cycle, made when its last pass ends. */
  held: Array<[GraphEdge, boolean]> = [];

  /** Starts the next pass: this one's decisions about the edges leaving the cycle no longer count. */
  next(): void {
    this.pass += 1;
    this.retry = false;
    this.held = [];
  }

  /** The decisions held for after the cycle, handed over once (the cycle ended). */
  release(): Array<[GraphEdge, boolean]> {
    const held = this.held;
    this.held = [];
    return held;
  }
}

/** One RetryPass per retry cycle of a scope, or null when it has none (the common case: nothing is made). */
export function retryPasses(cycles: ReadonlyArray<RetryCycle>): RetryPass[] | null {
  return cycles.length === 0 ? null : cycles.map(() => new RetryPass());
}

/**
 * The routes of a cycle's tail that takes the edge back when its retries are used up: its
 * `retriesExhausted` edges instead of the edge back, or a `retries_exhausted` failure when it has none.
 */
export function exhaustedRoutes(cycle: RetryCycle, routes: ReadonlyArray<boolean>): boolean[] {
  const edges = cycle.tail.outEdges;
  const rerouted = [...routes];
  let exhaustedEdge = false;
  for (let index = 0; index < edges.length; index += 1) {
    if (edges[index] === cycle.edge) rerouted[index] = false;
    else if (edges[index]!.handle === RETRIES_EXHAUSTED_HANDLE) {
      rerouted[index] = true;
      exhaustedEdge = true;
    }
  }
  if (exhaustedEdge) return rerouted;
  const times = cycle.maxRetries === 1 ? "once" : `${cycle.maxRetries} times`;
  throw new BlockExecutionError(
    `The retry edge ${edgeLabel(cycle.edge)} was already taken ${times}, its cap (maxRetries ${cycle.maxRetries}); connect the block's '${RETRIES_EXHAUSTED_HANDLE}' handle to go on another way`,
    { code: "retries_exhausted" },
  );
}

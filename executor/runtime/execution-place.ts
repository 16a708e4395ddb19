import type { Usage } from "@/contract";
import type { GraphNode } from "../graph";
import type { FailureRoute } from "./failure-report";
import type { IterationFrame } from "./frames";
import type { OutputStore, StoredResult } from "./output-store";
import type { RunContext } from "./run-context";
import type { StopToken } from "./stop-token";
import type { VariableScope } from "./variable-scope";

// What a block's run ends in, and where it runs: named by the checkpoints, the answers desk and
// reused results, which block-execution.ts itself imports.

export type BlockOutcome =
  | {
      status: "completed";
      output: Record<string, unknown>;
      /** What the block spent, a container's iterations included (kept with its checkpoint, so a resumed run's totals include it). */
      usage?: Usage;
      /** A container's last iteration's body outputs, which blocks after it read. */
      inner?: Array<[string, StoredResult]>;
      /** A loop's assignments to workflow variables, which blocks after it read. */
      variables?: Record<string, unknown>;
      /** Which of the block's out edges its output activates (handles and edge conditions), when worked out before reporting it. */
      routes?: boolean[];
    }
  /**
   * `usage`: what a failed container's iterations spent (a failed handler's spending is on its error). `route`: where
   * the failure goes, when worked out as it was reported (a failure thrown past the report has none).
   */
  | { status: "failed"; error: unknown; usage?: Usage; route?: FailureRoute }
  /** Never started, or stopped by a run halt (response block, cancellation, run timeout). */
  | { status: "notRun" };

/** Where a block runs: its scope's outputs, iteration frame and stop token. */
export interface ExecutionPlace {
  run: RunContext;
  store: OutputStore;
  frame: IterationFrame | null;
  iteration: ReadonlyArray<number>;
  stop: StopToken;
  parentSpanId: string | null;
  /** The workflow variables of this scope run and the assignments made in it. */
  variables: VariableScope;
  /** The pass of its retry cycle a block runs in (1, 2, …); 0 for a block in none. */
  attempt(node: GraphNode): number;
  /**
   * The routes a finished block leaves by once its retry cycle's cap is applied: unchanged, unless the
   * block closes a cycle whose retries are used up. Throws `retries_exhausted` when it has no edge for that.
   */
  capRetries(node: GraphNode, routes: boolean[]): boolean[];
}

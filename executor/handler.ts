import type { Usage, WorkflowBlock } from "@/contract";

/** A child span (model call or tool call) opened by a handler. */
export interface ChildSpan {
  readonly id: string;
  /** Opens a child of this span, for example a tool call made inside a sub-agent. */
  child(options: ChildSpanOptions): ChildSpan;
  end(result: { output?: unknown; usage?: Usage; error?: { code: string; message: string } }): void;
}

export interface ChildSpanOptions {
  kind: "model" | "tool";
  name: string;
  model?: string;
  input?: unknown;
}

/** What a handler gets besides its config: a small context, not the world. */
export interface HandlerContext {
  runId: string;
  workflowId: string;
  block: WorkflowBlock;
  /** Aborted when the run is cancelled or the block times out. Pass it to every I/O call. */
  signal: AbortSignal;
  /** Streams text to the canvas as `block.delta` events. */
  emitDelta(text: string): void;
  /** Opens a model or tool span under this block's span. */
  startSpan(options: ChildSpanOptions): ChildSpan;
  /** Blocks reachable through this block's `out` edges, for routers. */
  outgoingTargets: ReadonlyArray<WorkflowBlock>;
  /** Workflow variables (`<variable.x>`). */
  variables: Readonly<Record<string, unknown>>;
  /** Depth of workflow-as-tool nesting (0 for a top-level run). */
  depth: number;
  /** Services wired in by lib/runtime (providers, tools, knowledge). Typed by blocks/. */
  services: unknown;
  /** The run's input object; the start block turns it into its output. */
  runInput?: Readonly<Record<string, unknown>>;
  /** Loop/parallel iteration indexes, outermost first; empty at the top level. */
  iteration?: ReadonlyArray<number>;
}

export interface BlockResult {
  output: Record<string, unknown>;
  /** What the block spent on models; the engine adds it to the run's totals. */
  usage?: Usage;
}

export interface BlockHandlerArgs<Config = Record<string, unknown>> {
  /** The block's config with every reference resolved. */
  config: Config;
  /** Outputs of the blocks whose edges into this block were taken, by block id. */
  inputs: Readonly<Record<string, unknown>>;
  context: HandlerContext;
}

export type BlockHandler<Config = Record<string, unknown>> = (args: BlockHandlerArgs<Config>) => Promise<BlockResult>;

export type BlockHandlerLookup = (type: string) => BlockHandler | undefined;



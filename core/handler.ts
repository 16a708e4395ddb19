import type {
  AppliedPrice,
  AskAnswer,
  AskPrompt,
  IssueDetail,
  SimulationSource,
  Usage,
  WorkflowBlock,
} from "@/contract";
import type { Simulation } from "./simulation";
import type { BlockBudget } from "./spend-ledger";

/** A config parsed against its block type's schema: the typed value with defaults applied, or the problems. */
export type ConfigParse<Config> = { ok: true; value: Config } | { ok: false; issues: IssueDetail[] };

/** What an ask block waits for: its prompt, and how long before it leaves by its `timeout` handle. */
export interface AskRequest extends AskPrompt {
  timeoutMs?: number;
}

/** A child span (model call or tool call) opened by a handler. */
export interface ChildSpan {
  readonly id: string;
  /** Opens a child of this span, for example a tool call made inside a sub-agent. */
  child(options: ChildSpanOptions): ChildSpan;
  /** `cancelled`: it failed because its block was stopped (set by the engine, not by handlers): no error is kept. */
  /** `price`: what a priced model call was charged at, kept on its span. */
  end(result: {
    output?: unknown;
    usage?: Usage;
    price?: AppliedPrice;
    error?: { code: string; message: string };
    cancelled?: boolean;
  }): void;
  /** Test runs: the call this span stands for was answered by the simulation, not made (reported when it ends). */
  markSimulated?(source: SimulationSource): void;
}

export interface ChildSpanOptions {
  kind: "model" | "tool";
  name: string;
  model?: string;
  input?: unknown;
}

/** What a handler gets besides its config: a small context, not the world. */
/**
 * What an attempt at a block of a durable run keeps for a later attempt at the same block (the run
 * resumed after a pause or a crash): model answers and tool results, so that going on repeats
 * neither a paid model call nor a tool's side effect.
 */
export interface BlockMemo {
  /** A key for the next item of a kind in this attempt: `model#0`, `model#1`... (the same sequence on every attempt). */
  next(kind: string): string;
  /** What an earlier attempt stored under `key`, if anything. */
  recall(key: string): unknown;
  /** Stores a value for later attempts; durable once the promise resolves. */
  remember(key: string, value: unknown): Promise<void>;
  /**
   * A replay (POST /api/runs/:id/replay): `recall` also reads the source run's recordings, and a
   * model or tool call with nothing recorded fails `not_recorded` instead of being made.
   */
  readonly replaying?: boolean;
}

export interface HandlerContext {
  runId: string;
  workflowId: string;
  block: WorkflowBlock;
  /** The id of this block's span in the run's trace (what a request the block sends names as its parent). */
  spanId?: string;
  /** Aborted when the run is cancelled or the block times out. Pass it to every I/O call. */
  signal: AbortSignal;
  /** Streams text to the canvas as `block.delta` events. */
  emitDelta(text: string): void;
  /** Opens a model or tool span under this block's span. */
  startSpan(options: ChildSpanOptions): ChildSpan;
  /** Blocks reachable through this block's `out` edges, for routers. */
  outgoingTargets: ReadonlyArray<WorkflowBlock>;
  /** Workflow variables (`<variable.x>`) as this block sees them: with the assignments of Set Variables blocks upstream. */
  variables: Readonly<Record<string, unknown>>;
  /** Depth of workflow-as-tool nesting (0 for a top-level run). */
  depth: number;
  /** The run's input object; the start block turns it into its output. */
  runInput?: Readonly<Record<string, unknown>>;
  /** Loop/parallel iteration indexes, outermost first; empty at the top level. */
  iteration?: ReadonlyArray<number>;
  /** Durable runs only: what an earlier attempt at this block kept (model answers, tool results). */
  memo?: BlockMemo;
  /**
   * Puts a question to a person and resolves with the answer (the ask block). The run parks
   * while nothing but such waits is left and goes on when answered; an answer given before this
   * attempt is returned at once. Fails when the run cannot wait (a workflow run by another, as a tool or a Workflow block).
   */
  waitForAnswer?(request: AskRequest, signal: AbortSignal): Promise<AskAnswer>;
  /**
   * Present when the run is held to a budget: every model call reserves its worst case here first
   * (and is not made when that could cross a cap). Pass it to the model layer with each call.
   */
  budget?: BlockBudget;
  /** Test runs only: side effects (HTTP calls, web pages, side-effecting tools) are answered from the block's samples, not sent (simulation.ts). */
  simulation?: Simulation;
}

export interface BlockResult {
  output: Record<string, unknown>;
  /** What the block spent on models; the engine adds it to the run's totals. */
  usage?: Usage;
}

/** What a handler gets besides its config. */
export interface BlockCallArgs {
  /** Outputs of the blocks whose edges into this block were taken, by block id. */
  inputs: Readonly<Record<string, unknown>>;
  context: HandlerContext;
}

export interface BlockHandlerArgs<Config> extends BlockCallArgs {
  /** The block's config: references resolved, then parsed by its block type (defaults applied). */
  config: Config;
}

/**
 * A block type's work. `Config` is what its block type's `parseConfig` produces (for blocks/, the
 * output type of the definition's zod schema): the handler never parses its config itself. A
 * failure is thrown as a TrellisError, with `spent` and `partialOutput` when it had any.
 */
export type BlockHandler<Config> = (args: BlockHandlerArgs<Config>) => Promise<BlockResult>;

/** A handler call whose config is parsed: the engine adds the inputs and the context. */
export type PreparedBlockCall = (args: BlockCallArgs) => Promise<BlockResult>;

/**
 * A handler as the engine holds it: paired with the parser of the config it declares, so the
 * engine can hand it only a value that parser produced. The pairing is made by `bindHandler`,
 * where the handler's Config type is checked against its block type's.
 */
export interface BoundHandler {
  /** Parses a resolved config; on success, the handler's call with the parsed value. */
  prepare(config: unknown): ConfigParse<PreparedBlockCall>;
}

/** What `bindHandler` needs of a block type (the engine's BlockTypeInfo is one). */
export interface ConfigParser<Config> {
  parseConfig(config: unknown): ConfigParse<Config>;
}

export function bindHandler<Config>(info: ConfigParser<Config>, handler: BlockHandler<Config>): BoundHandler {
  return {
    prepare(config) {
      const parsed = info.parseConfig(config);
      if (!parsed.ok) return parsed;
      const parsedConfig = parsed.value;
      return {
        ok: true,
        value: (args) => handler({ inputs: args.inputs, context: args.context, config: parsedConfig }),
      };
    },
  };
}

export type BlockHandlerLookup = (type: string) => BoundHandler | undefined;

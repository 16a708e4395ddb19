import type { ToolSet } from "ai";
import type { BlockBudget, BlockMemo, ChildSpan, ChildSpanOptions, Simulation } from "@/core";
import type { ToolEntry, ToolInfo, Usage } from "@/contract";

/**
 * The seam between the agent's tool loop and the tools: a tool provider turns the agent's `tools`
 * config entries of its types into AI SDK tools (built with `tool()`), given a small context.
 */

/** One entry of an agent's `tools` config, parsed by its schema (contract/tool-entry.ts) with the agent's config. */
export type { ToolEntry };

export interface ToolContext {
  runId: string;
  workflowId: string;
  blockId: string;
  /** Aborted when the run is cancelled; pass it to every I/O call. */
  signal: AbortSignal;
  /** Workflow-as-tool nesting depth of the calling agent (0 at top level). */
  depth: number;
  variables: Readonly<Record<string, unknown>>;
  /**
   * The span of a tool call in progress (the agent opens one per call), to nest spans under it,
   * e.g. a sub-workflow's model calls. Look it up with the `toolCallId` the AI SDK passes to
   * `execute(input, { toolCallId })`.
   */
  toolSpan(toolCallId: string): ChildSpan | undefined;
  /** Opens a span under the agent block (rarely needed: tool calls already get one each). */
  startSpan(options: ChildSpanOptions): ChildSpan;
  /** A durable run's block memo: a tool's result is kept, and given again when the block runs again. */
  memo?: BlockMemo;
  /** The calling block's budget (HandlerContext.budget): a tool that calls models, or runs a workflow, is held to it. */
  budget?: BlockBudget;
  /**
   * Registers work to run when the agent's tool loop ends, whatever its outcome (closing MCP
   * clients, which stops their stdio child processes). Providers holding resources need it and
   * refuse to work without it.
   */
  onCleanup?(cleanup: () => Promise<void> | void): void;
  /**
   * What a tool call spent on models (a sub-workflow's run): shown on its tool span and added to
   * the agent block's tokens and cost.
   */
  reportUsage?(toolCallId: string, usage: Usage): void;
  /**
   * Marks a tool (by the name the model sees) whose successful call ends the agent's loop, its
   * result becoming the agent's answer with no further model call (an entry's `directOutput`).
   */
  markDirectOutput?(toolName: string): void;
  /**
   * Tool names owned by built-in tool types, set by the registry: a tool from outside (an MCP
   * server, a workflow) may not take one of them.
   */
  reservedNames?: ReadonlySet<string>;
  /**
   * Test runs only: the calling block's simulation. The registry answers the calls of
   * side-effecting tools (their provider's `sideEffects`) from it instead of executing them.
   */
  simulation?: Simulation;
  /**
   * Marks a tool (by the name the model sees) of a side-effecting provider as read-only: a test
   * run executes it for real (an MCP tool its server or its `readOnlyHint` says only reads).
   */
  markReadOnly?(toolName: string): void;
}

/** A tool call waiting for a person (a tool entry with `requireApproval: true`). */
export interface ToolApprovalRequest {
  runId: string;
  blockId: string;
  /** The tool call's span. */
  spanId: string | null;
  toolCallId: string;
  toolName: string;
  arguments: unknown;
}

export interface ToolApprovalDecision {
  approved: boolean;
  reason?: string;
}

/**
 * Pauses a tool call until a person decides. Resolves with the decision; rejects when the
 * signal aborts (the run is cancelled) or the run cannot wait.
 */
export type ToolApprovalGate = (request: ToolApprovalRequest, signal: AbortSignal) => Promise<ToolApprovalDecision>;

/** What the inspector shows for a tool type: a wire type (GET /api/tools), so the contract declares it. */
export type { ToolInfo };

export interface ToolProvider {
  /** Tool types this provider serves. */
  tools: readonly ToolInfo[];
  /** Whether its entries may say `directOutput: true` (it then marks their tools through `markDirectOutput`). */
  directOutput?: boolean;
  /**
   * Its tools act on the world (send requests, write files, call servers): in a test run their
   * calls are not executed but answered from the agent block's sample for the tool (by name), or
   * with a "no sample" result the model sees. A provider may exempt tools it knows only read
   * (`ToolContext.markReadOnly`).
   */
  sideEffects?: boolean;
  /** AI SDK tools for the given entries (all of this provider's types), keyed by the name the model sees. */
  createTools(entries: ToolEntry[], context: ToolContext): ToolSet | Promise<ToolSet>;
}

export type { ToolSet };

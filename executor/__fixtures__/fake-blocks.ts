import type { BlockTypeInfo, BlockTypeLookup } from "../block-type";
import {
  askHandleOf,
  type AskChoice,
  type WorkflowBlock,
  type WorkflowDocument,
  workflowDocumentSchema,
  type WorkflowDocumentInput,
  type IssueDetail,
  type Usage,
} from "@/contract";
import {
  BlockExecutionError,
  bindHandler,
  type BlockHandler,
  type BlockHandlerLookup,
  type BoundHandler,
  type ConfigParse,
} from "@/core";
import { evaluateCondition, evaluateExpression } from "../expression";

/**
 * In-memory block types and handlers for executor tests: the engine's real code runs against
 * these, only the blocks' work is simulated (delays, failures, outputs chosen by config).
 */

const standard = () => ["out", "error"];

function askChoiceIds(block: WorkflowBlock): string[] {
  return Array.isArray(block.config.choices)
    ? (block.config.choices as Array<{ id: string }>).map((choice) => choice.id)
    : [];
}

function branchHandles(block: WorkflowBlock): string[] {
  const branches = Array.isArray(block.config.branches) ? (block.config.branches as Array<{ id: string }>) : [];
  return [...branches.map((branch) => `branch:${branch.id}`), "error"];
}

type FakeConfig = Record<string, unknown>;

function configRecord(config: unknown): FakeConfig {
  return config !== null && typeof config === "object" && !Array.isArray(config)
    ? Object.fromEntries(Object.entries(config))
    : {};
}

/** Takes any config as it is, like a schema of optional unknown fields. */
function parseAny(config: unknown): ConfigParse<FakeConfig> {
  return { ok: true, value: configRecord(config) };
}

/** `task` checks a few typed fields, so config validation and reference tolerance can be tested. */
function parseTask(config: unknown): ConfigParse<FakeConfig> {
  const record = configRecord(config);
  const issues: IssueDetail[] = [];
  if ("count" in record && typeof record.count !== "number") issues.push({ path: "count", message: "expected number" });
  if ("items" in record && !Array.isArray(record.items)) issues.push({ path: "items", message: "expected array" });
  if ("model" in record && (typeof record.model !== "string" || record.model === ""))
    issues.push({ path: "model", message: "choose a model" });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: record };
}

/** `greeter` has a default, so tests can see the handler get the parsed value, not the raw config. */
function parseGreeter(config: unknown): ConfigParse<FakeConfig> {
  const record = configRecord(config);
  if ("greeting" in record && typeof record.greeting !== "string")
    return { ok: false, issues: [{ path: "greeting", message: "expected text" }] };
  return { ok: true, value: { greeting: "Hello", ...record } };
}

function parseCondition(config: unknown): ConfigParse<FakeConfig> {
  const record = configRecord(config);
  return Array.isArray(record.branches)
    ? { ok: true, value: record }
    : { ok: false, issues: [{ path: "branches", message: "add at least one branch" }] };
}

const TYPES: Record<string, BlockTypeInfo<FakeConfig>> = {
  start: { type: "start", entry: true, routing: "all", sourceHandles: () => ["out"], parseConfig: parseAny },
  task: { type: "task", routing: "all", sourceHandles: standard, parseConfig: parseTask },
  greeter: { type: "greeter", routing: "all", sourceHandles: standard, parseConfig: parseGreeter },
  condition: {
    type: "condition",
    routing: "branch",
    sourceHandles: branchHandles,
    expressionFields: ["branches[].expression"],
    parseConfig: parseCondition,
  },
  router: { type: "router", routing: "route", sourceHandles: standard, parseConfig: parseAny },
  /** Leaves by the handles its output names (`output.handles`), like an ask's choices or an agent's tool outcomes. */
  picker: {
    type: "picker",
    routing: "all",
    sourceHandles: (block) => [
      ...(Array.isArray(block.config.offers) ? (block.config.offers as string[]) : []),
      "out",
      "error",
    ],
    takenHandles: (_block, output) => (Array.isArray(output.handles) ? (output.handles as string[]) : ["out"]),
    parseConfig: parseAny,
  },
  /** Sets workflow variables: `assignments: [{ name, value }]` or `[{ name, expression }]`, like the Set Variables block. */
  setvars: {
    type: "setvars",
    routing: "all",
    sourceHandles: standard,
    expressionFields: ["assignments[].expression"],
    assignsVariables: (block) =>
      Array.isArray(block.config.assignments)
        ? (block.config.assignments as Array<{ name: string }>).map((item) => item.name)
        : [],
    parseConfig: parseAny,
  },
  /** Waits for a person like the ask block: `choice:<id>` per choice (else `out`), and `timeout`. */
  ask: {
    type: "ask",
    routing: "all",
    sourceHandles: (block) => [...askChoiceIds(block).map((id) => `choice:${id}`), "out", "timeout", "error"],
    takenHandles: (block, output) => [
      askHandleOf(
        { choice: typeof output.choice === "string" ? output.choice : null, timedOut: output.timedOut === true },
        askChoiceIds(block).length > 0,
      ),
    ],
    parseConfig: parseAny,
  },
  response: { type: "response", terminal: true, routing: "all", sourceHandles: () => [], parseConfig: parseAny },
  loop: {
    type: "loop",
    container: "loop",
    routing: "all",
    sourceHandles: () => ["body", "out", "error"],
    parseConfig: parseAny,
    expressionFields: ["condition"],
  },
  parallel: {
    type: "parallel",
    container: "parallel",
    routing: "all",
    sourceHandles: () => ["body", "out", "error"],
    parseConfig: parseAny,
  },
};

export const lookupFakeType: BlockTypeLookup = (type) => TYPES[type];

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** What fake handlers saw, for assertions. */
export interface HandlerLog {
  calls: Array<{
    blockId: string;
    config: Record<string, unknown>;
    inputs: Record<string, unknown>;
    iteration: number[];
  }>;
  aborted: string[];
  attempts: Map<string, number>;
  maxRunning: number;
  running: number;
}

export function createHandlers(log: HandlerLog = newLog()): { lookup: BlockHandlerLookup; log: HandlerLog } {
  const task: BlockHandler<FakeConfig> = async ({ config, inputs, context }) => {
    const key = `${context.block.id}@${(context.iteration ?? []).join(".")}`;
    const attempt = (log.attempts.get(key) ?? 0) + 1;
    log.attempts.set(key, attempt);
    log.calls.push({
      blockId: context.block.id,
      config,
      inputs: { ...inputs },
      iteration: [...(context.iteration ?? [])],
    });
    log.running += 1;
    log.maxRunning = Math.max(log.maxRunning, log.running);
    try {
      if (typeof config.delta === "string") context.emitDelta(config.delta);
      if (Array.isArray(config.deltas)) for (const delta of config.deltas) context.emitDelta(String(delta));
      if (config.childSpan)
        context.startSpan({ kind: "model", name: "fake/model", model: "fake/model" }).end({ output: { text: "hi" } });
      if (typeof config.delayMs === "number") {
        if (config.ignoreSignal) await new Promise((resolve) => setTimeout(resolve, config.delayMs as number));
        else
          await wait(config.delayMs, context.signal).catch((error: unknown) => {
            log.aborted.push(context.block.id);
            throw error;
          });
      }
      // Like a call that never returns (the process died during it): waits until the run stops it.
      if (config.hangOn !== undefined && config.hangOn !== null && config.hangOn === config.index)
        await wait(2 ** 31 - 1, context.signal).catch((error: unknown) => {
          log.aborted.push(context.block.id);
          throw error;
        });
      if (typeof config.failTimes === "number" && attempt <= config.failTimes)
        throw new Error(`flaky failure ${attempt}`);
      if (typeof config.fail === "string") {
        // With `usage`, like a model call whose stream broke: it spent tokens and produced part of an answer.
        const remains = config.usage ? { spent: config.usage as Usage, partialOutput: { content: "partial" } } : {};
        throw new BlockExecutionError(config.fail, { code: "task_failed", ...remains });
      }
      if (config.failOn !== undefined && config.failOn === config.index)
        throw new BlockExecutionError(`failed on ${String(config.index)}`, { code: "task_failed" });
      if (config.echoVariables) return { output: { ...context.variables } };
      const output = (config.output as Record<string, unknown> | undefined) ?? { value: config.value ?? null };
      return config.usage ? { output, usage: config.usage as Usage } : { output };
    } finally {
      log.running -= 1;
    }
  };
  const handlers: Record<string, BlockHandler<FakeConfig>> = {
    start: async ({ context }) => ({ output: { ...(context.runInput ?? {}) } }),
    task,
    condition: async ({ config }) => {
      const branches = config.branches as Array<{ id: string; expression?: string }>;
      const chosen = branches.find((branch) => !branch.expression || evaluateCondition(branch.expression));
      return { output: { selectedBranch: chosen?.id ?? null } };
    },
    router: async ({ config }) => ({ output: { selectedRoute: config.route ?? null } }),
    picker: async ({ config }) => ({ output: { handles: config.handles ?? ["out"] } }),
    greeter: async ({ config }) => ({
      output: { text: `${String(config.greeting)}, ${String(config.name ?? "you")}` },
    }),
    response: async ({ config }) => ({ output: { data: config.data ?? null } }),
    setvars: async ({ config }) => {
      const assignments = config.assignments as Array<{ name: string; value?: unknown; expression?: string }>;
      return {
        output: Object.fromEntries(
          assignments.map((item) => [item.name, item.expression ? evaluateExpression(item.expression) : item.value]),
        ),
      };
    },
    ask: async ({ config, context }) => {
      const request = {
        question: String(config.question ?? "?"),
        choices: (config.choices as AskChoice[] | undefined) ?? [],
        allowText: config.allowText === true,
        fields: [],
        ...(typeof config.timeoutMs === "number" ? { timeoutMs: config.timeoutMs } : {}),
      };
      return { output: { ...(await context.waitForAnswer!(request, context.signal)) } };
    },
  };
  const bound = new Map<string, BoundHandler>();
  for (const [type, handler] of Object.entries(handlers)) bound.set(type, bindHandler(TYPES[type]!, handler));
  return { lookup: (type) => bound.get(type), log };
}

export function newLog(): HandlerLog {
  return { calls: [], aborted: [], attempts: new Map(), maxRunning: 0, running: 0 };
}

type BlockInput = WorkflowDocumentInput["blocks"] extends Array<infer B> | undefined ? B : never;

export function block(
  id: string,
  type: string,
  config: Record<string, unknown> = {},
  extra: Partial<BlockInput> = {},
): BlockInput {
  return { id, type, name: extra.name ?? id, config, ...extra };
}

export function edge(
  source: string,
  target: string,
  sourceHandle?: string,
): NonNullable<WorkflowDocumentInput["edges"]>[number] {
  return {
    id: `${source}->${target}${sourceHandle ? `:${sourceHandle}` : ""}`,
    source,
    target,
    ...(sourceHandle ? { sourceHandle } : {}),
  };
}

export function workflow(
  blocks: BlockInput[],
  edges: NonNullable<WorkflowDocumentInput["edges"]>,
  variables: Record<string, unknown> = {},
): WorkflowDocument {
  return workflowDocumentSchema.parse({ name: "Test", blocks, edges, variables });
}

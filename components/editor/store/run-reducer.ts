import { type RunEvent, type SequencedRunEvent, type Usage } from "@/contract";
import { addUsage } from "@/executor";
import type { ApprovalEntry, BlockRunState, ConsoleEntry, RunView } from "./run-view";

/**
 * Run events in, run state out: the only place that decides what an event means for the canvas,
 * the toolbar and the console. The live stream, a reload's replay and a past run from history all
 * go through it, so they cannot disagree. It returns the state it was given when an event changes
 * nothing (a resumed stream's repeats), so the store does not notify for them.
 */

function usageOf(fields: {
  tokens?: Usage["tokens"];
  cost?: Usage["cost"];
  unpriced?: boolean;
  estimated?: boolean;
}): Usage | null {
  if (!fields.tokens) return null;
  const usage: Usage = { tokens: fields.tokens, cost: fields.cost ?? null };
  if (fields.unpriced || fields.cost === null || fields.cost === undefined) usage.unpriced = true;
  if (fields.estimated) usage.estimated = true;
  return usage;
}

/** Adds what one more execution of a block spent to what it spent before (loops run blocks again). */
function accumulate(block: BlockRunState, usage: Usage | null, durationMs: number | undefined): Partial<BlockRunState> {
  const again = (block.runs ?? 1) > 1;
  const patch: Partial<BlockRunState> = {};
  if (durationMs !== undefined)
    patch.durationMs = again && block.durationMs !== undefined ? block.durationMs + durationMs : durationMs;
  if (usage) {
    const previous: Usage | null =
      again && block.tokens
        ? { tokens: block.tokens, cost: block.cost ?? null, unpriced: block.unpriced, estimated: block.estimated }
        : null;
    const total = previous ? addUsage(previous, usage) : usage;
    patch.tokens = total.tokens;
    patch.cost = total.cost;
    patch.unpriced = Boolean(total.unpriced);
    patch.estimated = Boolean(total.estimated);
  }
  return patch;
}

/**
 * The block map and console log that the batch being reduced has already copied: no one has seen
 * them yet, so the batch's later events write into them instead of copying them again. A frame of
 * a 500-block run carries dozens of events, and a copy of the map and of a log thousands of lines
 * long per event was most of the reducer's time. Only reduceRunEvents sets it, for one batch.
 */
let batchCopies: { blocks: Record<string, BlockRunState> | null; log: ConsoleEntry[] | null } | null = null;

function writableBlocks(view: RunView): Record<string, BlockRunState> {
  if (batchCopies?.blocks === view.blocks) return view.blocks;
  const blocks = { ...view.blocks };
  if (batchCopies) batchCopies.blocks = blocks;
  return blocks;
}

function writableLog(view: RunView): ConsoleEntry[] {
  if (batchCopies?.log === view.log) return view.log;
  const log = [...view.log];
  if (batchCopies) batchCopies.log = log;
  return log;
}

function patchBlock(view: RunView, blockId: string, patch: (block: BlockRunState) => Partial<BlockRunState>): RunView {
  const block = view.blocks[blockId] ?? { status: "pending", text: "" };
  const blocks = writableBlocks(view);
  blocks[blockId] = { ...block, ...patch(block) };
  return { ...view, blocks };
}

/** Run totals so far: the sum of what finished blocks reported (containers report nothing of their own). */
function addToTotals(view: RunView, usage: Usage | null): RunView {
  if (!usage) return view;
  const previous: Usage = view.tokens
    ? { tokens: view.tokens, cost: view.cost ?? null, unpriced: view.unpriced, estimated: view.estimated }
    : { tokens: { prompt: 0, completion: 0, total: 0 }, cost: { input: 0, output: 0, total: 0 } };
  const total = addUsage(previous, usage);
  return {
    ...view,
    tokens: total.tokens,
    cost: total.cost,
    unpriced: Boolean(total.unpriced),
    estimated: Boolean(total.estimated),
  };
}

function logged(view: RunView, seq: number, entry: Omit<ConsoleEntry, "seq">): RunView {
  const log = writableLog(view);
  log.push({ seq, ...entry });
  return { ...view, log };
}

/**
 * Streamed text as console lines, as it arrives: the text up to its first line break goes on the
 * span's line still open (another block may have logged since: parallel streams interleave by line),
 * each further line starts an entry of its own, and text ending without a break leaves its line open.
 */
function appendDelta(view: RunView, seq: number, event: Extract<RunEvent, { type: "block.delta" }>): RunView {
  const [first = "", ...rest] = event.text.split("\n");
  const log = writableLog(view);
  const openIndex = log.findLastIndex(
    (entry) => entry.type === "block.delta" && entry.spanId === event.spanId && entry.partial,
  );
  const base = { type: "block.delta" as const, blockId: event.blockId, spanId: event.spanId };
  let line = 0;
  if (openIndex >= 0) {
    const open = log[openIndex]!;
    log[openIndex] = { ...open, text: open.text + first, partial: rest.length === 0 };
  } else if (first !== "" || rest.length > 0) {
    log.push({ seq, line: line++, ...base, text: first, partial: rest.length === 0 });
  }
  rest.forEach((text, index) => {
    const last = index === rest.length - 1;
    // A break at the very end ends the line; the next delta starts the next one.
    if (last && text === "") return;
    log.push({ seq, line: line++, ...base, text, partial: last });
  });
  return { ...view, log };
}

/** Ends a block's streamed line still open: the block finished, so nothing more goes on it. */
function closeStream(view: RunView, spanId: string): RunView {
  const index = view.log.findLastIndex(
    (entry) => entry.type === "block.delta" && entry.spanId === spanId && entry.partial,
  );
  if (index < 0) return view;
  const log = writableLog(view);
  log[index] = { ...log[index]!, partial: false };
  return { ...view, log };
}

/** What a block's code printed (a Function block's output `stdout`), one console line per printed line. */
function logStdout(view: RunView, seq: number, blockId: string, spanId: string, output: unknown): RunView {
  const stdout =
    output !== null && typeof output === "object" && "stdout" in output
      ? (output as { stdout: unknown }).stdout
      : undefined;
  if (typeof stdout !== "string" || stdout === "") return view;
  const log = writableLog(view);
  stdout
    .replace(/\n$/, "")
    .split("\n")
    .forEach((text, line) => log.push({ seq, line, type: "block.stdout", blockId, spanId, text }));
  return { ...view, log };
}

const CANCELLED_WHILE_RUNNING = {
  code: "cancelled",
  message: "The run was cancelled while this block was running",
} as const;

/**
 * Blocks still running when the run stops were cut short; blocks never reached show nothing. A
 * cancellation marks them cancelled, with the reason, and the console names each.
 */
function settleBlocks(view: RunView, seq: number, cancelled: boolean): RunView {
  const blocks: Record<string, BlockRunState> = {};
  const cut: string[] = [];
  for (const [id, block] of Object.entries(view.blocks)) {
    if (block.status === "pending") continue;
    if (cancelled && block.status === "running") {
      blocks[id] = { ...block, status: "cancelled", error: CANCELLED_WHILE_RUNNING };
      cut.push(id);
    } else blocks[id] = block;
  }
  const log = view.log.map((entry) => (entry.partial ? { ...entry, partial: false } : entry));
  const settled = { ...view, blocks, log };
  return cut.reduce(
    (next, id, line) =>
      logged(next, seq, {
        type: "block.cancelled",
        line,
        blockId: id,
        text: `${nameOf(view, id)} cancelled: the run was cancelled while it was running`,
      }),
    settled,
  );
}

function nameOf(view: RunView, blockId: string): string {
  return view.blockNames[blockId] ?? blockId;
}

const BUDGET_WHOSE = { workflow: "the workflow's", request: "this run's" } as const;

export function reduceRun(state: RunView, { seq, event }: SequencedRunEvent): RunView {
  if (seq <= state.lastSeq || (state.runId !== null && event.runId !== state.runId)) return state;
  const view: RunView = { ...state, runId: event.runId, lastSeq: seq };
  switch (event.type) {
    case "run.started":
      return logged(
        {
          ...view,
          status: view.status === "queued" || view.status === "idle" ? "running" : view.status,
          workflowId: event.workflowId,
          startedAt: event.startedAt,
          ...(event.budget ? { budget: event.budget } : {}),
        },
        seq,
        {
          type: event.type,
          text: event.budget
            ? `Run started, with a budget of $${event.budget.maxCost} (${BUDGET_WHOSE[event.budget.source]})`
            : "Run started",
        },
      );
    case "block.started": {
      const named = { ...view, blockNames: { ...view.blockNames, [event.blockId]: event.blockName } };
      const iteration = event.iteration?.length ? ` (iteration ${event.iteration.join(".")})` : "";
      const next = patchBlock(named, event.blockId, (block) => ({
        status: "running",
        startedAt: event.startedAt,
        text: "",
        error: undefined,
        runs: (block.runs ?? 0) + 1,
      }));
      return logged(next, seq, {
        type: event.type,
        blockId: event.blockId,
        spanId: event.spanId,
        text: `${event.blockName} started${iteration}`,
      });
    }
    case "block.delta":
      return appendDelta(
        patchBlock(view, event.blockId, (block) => ({ text: block.text + event.text })),
        seq,
        event,
      );
    case "block.completed": {
      const usage = usageOf(event);
      const reused = event.reused ? { reusedFrom: event.reused.runId } : {};
      const next = patchBlock(view, event.blockId, (block) => ({
        status: "succeeded",
        output: event.output,
        ...accumulate(block, usage, event.durationMs),
        ...reused,
        ...(event.simulated ? { simulated: event.simulated } : {}),
      }));
      const closed = closeStream(addToTotals(next, usage), event.spanId);
      // A reused result printed nothing in this run.
      const printed = event.reused ? closed : logStdout(closed, seq, event.blockId, event.spanId, event.output);
      return logged(printed, seq, {
        type: event.type,
        blockId: event.blockId,
        spanId: event.spanId,
        text: event.reused
          ? `${nameOf(view, event.blockId)} reused its result from run ${event.reused.runId}`
          : `${nameOf(view, event.blockId)} succeeded`,
      });
    }
    case "block.failed": {
      const usage = usageOf(event);
      const next = patchBlock(view, event.blockId, (block) => ({
        status: "failed",
        error: event.error,
        handled: event.handled,
        ...accumulate(block, usage, undefined),
      }));
      const how = event.handled ? " (taken by its error path)" : "";
      return logged(closeStream(addToTotals(next, usage), event.spanId), seq, {
        type: event.type,
        blockId: event.blockId,
        spanId: event.spanId,
        text: `${nameOf(view, event.blockId)} failed${how}: ${event.error.message}`,
      });
    }
    case "block.skipped": {
      const current = view.blocks[event.blockId];
      const next =
        !current || current.status === "pending"
          ? patchBlock(view, event.blockId, () => ({ status: "skipped" }))
          : view;
      return logged(next, seq, {
        type: event.type,
        blockId: event.blockId,
        text: `${nameOf(view, event.blockId)} skipped: ${event.reason}`,
      });
    }
    case "run.completed": {
      const totals = {
        durationMs: event.durationMs,
        tokens: event.tokens,
        cost: event.cost,
        unpriced: Boolean(event.unpriced || event.cost === null),
        estimated: Boolean(event.estimated),
      };
      return logged(
        settleBlocks({ ...view, ...totals, status: "succeeded", output: event.output, ended: true }, seq, false),
        seq,
        {
          type: event.type,
          text: "Run succeeded",
        },
      );
    }
    case "run.failed":
      return logged(settleBlocks({ ...view, status: "failed", error: event.error, ended: true }, seq, false), seq, {
        type: event.type,
        text: `Run failed: ${event.error.message}`,
      });
    case "run.cancelled":
      return logged(settleBlocks({ ...view, status: "cancelled", ended: true }, seq, true), seq, {
        type: event.type,
        text: "Run cancelled",
      });
    case "run.paused": {
      const waitingFor = event.reason === "approval" ? "a person's approval" : "an answer";
      return logged({ ...view, status: "paused" }, seq, {
        type: event.type,
        blockId: event.blockId,
        text: `Run paused: waiting for ${waitingFor}`,
      });
    }
    case "run.resumed": {
      // Blocks the stopped process was running start again (a new block.started follows); they show as waiting until then.
      const blocks: Record<string, BlockRunState> = {};
      for (const [id, block] of Object.entries(view.blocks))
        blocks[id] = block.status === "running" ? { ...block, status: "pending", text: "" } : block;
      const where = event.worker ? ` on ${event.worker}` : "";
      const why = event.reason === "recovered" ? "after its process stopped" : `(${event.reason})`;
      const recoveries = event.reason === "recovered" ? (view.recoveries ?? 0) + 1 : view.recoveries;
      return logged(
        {
          ...view,
          blocks,
          status: "running",
          resumed: event.reason,
          ...(recoveries === undefined ? {} : { recoveries }),
        },
        seq,
        {
          type: event.type,
          text: `Run resumed ${why}${where}`,
        },
      );
    }
    case "tool.approval.requested": {
      const approval: ApprovalEntry = {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        blockId: event.blockId,
        arguments: event.arguments,
        requestedAt: event.requestedAt,
      };
      const next = { ...view, status: "paused" as const, approvals: [...view.approvals, approval] };
      return logged(next, seq, {
        type: event.type,
        blockId: event.blockId,
        text: `${nameOf(view, event.blockId)} asks to call ${event.toolName}`,
      });
    }
    case "tool.approval.resolved": {
      const decision = { approved: event.approved, ...(event.reason ? { reason: event.reason } : {}) };
      const approvals = view.approvals.map((item) =>
        item.toolCallId === event.toolCallId ? { ...item, decision } : item,
      );
      const waiting = approvals.some((item) => !item.decision);
      const next = {
        ...view,
        approvals,
        status: view.status === "paused" && !waiting ? ("running" as const) : view.status,
      };
      const verdict = event.approved ? "approved" : `denied${event.reason ? `: ${event.reason}` : ""}`;
      return logged(next, seq, { type: event.type, blockId: event.blockId, text: `${event.toolName} ${verdict}` });
    }
    case "ask.requested": {
      const { type: _type, ...ask } = event;
      const known = view.asks.some((item) => item.spanId === event.spanId);
      const asks = known
        ? view.asks.map((item) => (item.spanId === event.spanId ? { ...item, ...ask } : item))
        : [...view.asks, ask];
      return logged({ ...view, asks }, seq, {
        type: event.type,
        blockId: event.blockId,
        spanId: event.spanId,
        text: `${nameOf(view, event.blockId)} asks: ${event.question}`,
      });
    }
    case "ask.answered": {
      const {
        type: _type,
        runId: _runId,
        blockId: _blockId,
        spanId: _spanId,
        iteration: _iteration,
        ...answer
      } = event;
      const asks = view.asks.map((item) => (item.spanId === event.spanId ? { ...item, answer } : item));
      const what = event.timedOut
        ? "timed out"
        : `answered${event.choice ? ` ${event.choice}` : ""}${event.answeredBy ? ` by ${event.answeredBy}` : ""}`;
      return logged({ ...view, asks }, seq, {
        type: event.type,
        blockId: event.blockId,
        spanId: event.spanId,
        text: `${nameOf(view, event.blockId)} ${what}`,
      });
    }
  }
}

export function reduceRunEvents(state: RunView, events: readonly SequencedRunEvent[]): RunView {
  batchCopies = { blocks: null, log: null };
  try {
    return events.reduce(reduceRun, state);
  } finally {
    batchCopies = null;
  }
}

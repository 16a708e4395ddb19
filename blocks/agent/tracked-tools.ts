import type { ToolSet } from "ai";
import { type ChildSpan, type ChildSpanOptions, errorInfo, addUsage, emptyUsage, isTrellisError } from "@/executor";
import { type Usage } from "@/contract";
import type { RejectedToolCall } from "@/providers";

/** One tool call as the agent's output lists it. */
export interface ToolCallRecord {
  name: string;
  arguments: unknown;
  result?: unknown;
  error?: { code: string; message: string };
  startTime: string;
  endTime: string;
  duration: number;
}

/**
 * Wraps each tool's `execute` so every call is a `tool` child span with its arguments, result
 * and timing, and is recorded for the block's `toolCalls` output. A failing tool is recorded and
 * its error goes back to the model (the AI SDK's behaviour), which may recover; so is an answer
 * that reports an error (MCP's `isError`), which the model gets as it is.
 */
export interface ToolTracker {
  tools: ToolSet;
  /** The finished calls in the order they were issued (not finished), so "the last call" of a tool does not depend on timing. */
  readonly calls: ReadonlyArray<ToolCallRecord>;
  /** Time during which at least one tool was running, in ms. */
  busyMs(): number;
  spanOf(toolCallId: string): ChildSpan | undefined;
  /** Records what a call spent (a sub-workflow's models); it goes on the call's span. */
  reportUsage(toolCallId: string, usage: Usage): void;
  /** What the tools spent, summed; undefined when none reported any. */
  toolUsage(): Usage | undefined;
  /** A call refused before it ran (bad arguments, unknown tool): a failed tool span and a failed call, never silently dropped. */
  reject(call: RejectedToolCall): void;
}

/** The error an answer reports (an MCP `CallToolResult` with `isError: true`), its text as the message. */
export function reportedError(result: unknown): { code: string; message: string } | null {
  if (typeof result !== "object" || result === null || (result as { isError?: unknown }).isError !== true) return null;
  const content = (result as { content?: unknown }).content;
  const texts = Array.isArray(content)
    ? content.flatMap((part: unknown) =>
        typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
          ? [(part as { text: string }).text]
          : [],
      )
    : [];
  const message = texts.join("\n").trim().slice(0, 1_000);
  return { code: "tool_error", message: message || "The tool reported an error" };
}

export function trackTools(tools: ToolSet, startSpan: (options: ChildSpanOptions) => ChildSpan): ToolTracker {
  // A call takes its slot when it starts: parallel calls finish in any order (and instantly when replayed on resume).
  const slots: Array<ToolCallRecord | undefined> = [];
  const intervals: Array<[number, number]> = [];
  const spans = new Map<string, ChildSpan>();
  const usageByCall = new Map<string, Usage>();
  let spent: Usage | undefined;
  const wrapped: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    const execute = definition.execute;
    if (!execute) {
      wrapped[name] = definition;
      continue;
    }
    wrapped[name] = {
      ...definition,
      execute: async (input: unknown, options: { toolCallId: string }) => {
        const span = startSpan({ kind: "tool", name, input });
        spans.set(options.toolCallId, span);
        const startedAt = new Date();
        const started = performance.now();
        const slot = slots.push(undefined) - 1;
        const finish = (record: Pick<ToolCallRecord, "result" | "error">) => {
          const ended = performance.now();
          intervals.push([started, ended]);
          slots[slot] = {
            name,
            arguments: input,
            ...record,
            startTime: startedAt.toISOString(),
            endTime: new Date().toISOString(),
            duration: Math.round(ended - started),
          };
          spans.delete(options.toolCallId);
        };
        const usageOfCall = () => {
          const usage = usageByCall.get(options.toolCallId);
          usageByCall.delete(options.toolCallId);
          return usage ? { usage } : {};
        };
        try {
          const result = await execute(input as never, options as never);
          // An MCP tool reports its failures in its answer; the model still reads that answer.
          const reported = reportedError(result);
          finish(reported ? { result, error: reported } : { result });
          span.end({ output: result, ...(reported ? { error: reported } : {}), ...usageOfCall() });
          return result;
        } catch (error) {
          const info = errorInfo(error);
          finish({ error: info });
          // A workflow tool's error names its child run (`partialOutput`): the span keeps it, so the trace links the run.
          const partial = isTrellisError(error) ? error.partialOutput : undefined;
          span.end({ error: info, ...(partial === undefined ? {} : { output: partial }), ...usageOfCall() });
          throw error;
        }
      },
    } as typeof definition;
  }
  return {
    tools: wrapped,
    get calls() {
      return slots.filter((call): call is ToolCallRecord => call !== undefined);
    },
    spanOf: (toolCallId) => spans.get(toolCallId),
    reportUsage(toolCallId, usage) {
      usageByCall.set(toolCallId, addUsage(usageByCall.get(toolCallId) ?? emptyUsage(), usage));
      spent = addUsage(spent ?? emptyUsage(), usage);
    },
    toolUsage: () => spent,
    reject(call) {
      const at = new Date().toISOString();
      startSpan({ kind: "tool", name: call.toolName, input: call.input }).end({ error: call.error });
      slots.push({
        name: call.toolName,
        arguments: call.input,
        error: call.error,
        startTime: at,
        endTime: at,
        duration: 0,
      });
    },
    busyMs() {
      // Union of intervals, so parallel tool calls are not counted twice.
      const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
      let total = 0;
      let end = -Infinity;
      for (const [start, stop] of sorted) {
        if (stop <= end) continue;
        total += stop - Math.max(start, end);
        end = stop;
      }
      return total;
    },
  };
}

import { performance } from "node:perf_hooks";
import type { WorkflowDocument, RunEvent, SpanRecord } from "@/contract";
import { executeWorkflow, type ExecutionRequest, type ExecutionResult } from "../engine";
import { createHandlers, lookupFakeType, newLog, type HandlerLog } from "./fake-blocks";

export type TimedEvent = RunEvent & { at: number };

export interface HarnessResult {
  result: ExecutionResult;
  events: TimedEvent[];
  spans: SpanRecord[];
  log: HandlerLog;
  /** `type:blockId` for block events, the type alone for run events. */
  trail: string[];
  started(blockId: string): TimedEvent[];
  completed(blockId: string): TimedEvent[];
  skipped: string[];
  failed: Array<Extract<RunEvent, { type: "block.failed" }>>;
}

let counter = 0;

/** Runs a document with fake handlers, recording every event with the time the observer got it; `onEvent` sees each one as it comes. */
export async function runHarness(
  document: WorkflowDocument,
  { onEvent, ...options }: Partial<ExecutionRequest> & { onEvent?: (event: RunEvent) => void } = {},
): Promise<HarnessResult> {
  const events: TimedEvent[] = [];
  const spans: SpanRecord[] = [];
  const { lookup, log } = createHandlers(newLog());
  const result = await executeWorkflow({
    document,
    lookupBlockType: lookupFakeType,
    lookupHandler: lookup,
    observer: {
      event: (event) => {
        events.push({ ...event, at: performance.now() });
        onEvent?.(event);
      },
      span: (span) => spans.push(structuredClone(span)),
    },
    runId: "run-1",
    workflowId: "wf-1",
    idGenerator: () => `id-${++counter}`,
    ...options,
  });
  const byType = (type: RunEvent["type"], blockId: string) =>
    events.filter((event) => event.type === type && "blockId" in event && event.blockId === blockId);
  return {
    result,
    events,
    spans,
    log,
    trail: events
      .filter((event) => event.type !== "block.delta")
      .map((event) => ("blockId" in event ? `${event.type.replace("block.", "")}:${event.blockId}` : event.type)),
    started: (blockId) => byType("block.started", blockId),
    completed: (blockId) => byType("block.completed", blockId),
    skipped: events.flatMap((event) => (event.type === "block.skipped" ? [event.blockId] : [])),
    failed: events.filter(
      (event): event is Extract<RunEvent, { type: "block.failed" }> & { at: number } => event.type === "block.failed",
    ),
  };
}

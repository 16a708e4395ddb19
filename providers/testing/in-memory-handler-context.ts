import type { WorkflowBlock, Usage } from "@/contract";
import type { ChildSpan, ChildSpanOptions, HandlerContext } from "@/core";

/**
 * A HandlerContext that keeps everything in memory, for testing block handlers without the
 * engine: deltas and child spans are collected for assertions.
 */
export interface RecordedSpan extends ChildSpanOptions {
  id: string;
  parentId: string | null;
  startedAt: number;
  endedAt?: number;
  output?: unknown;
  usage?: Usage;
  error?: { code: string; message: string };
}

export interface InMemoryHandlerContext extends HandlerContext {
  deltas: string[];
  spans: RecordedSpan[];
  abort(reason?: unknown): void;
}

export function createInMemoryHandlerContext(
  overrides: Omit<Partial<HandlerContext>, "block"> & { block?: Partial<WorkflowBlock> } = {},
): InMemoryHandlerContext {
  const controller = new AbortController();
  const deltas: string[] = [];
  const spans: RecordedSpan[] = [];
  let counter = 0;
  const open = (options: ChildSpanOptions, parentId: string | null): ChildSpan => {
    const record: RecordedSpan = { ...options, id: `span-${++counter}`, parentId, startedAt: performance.now() };
    spans.push(record);
    return {
      id: record.id,
      child: (childOptions) => open(childOptions, record.id),
      end(result) {
        if (record.endedAt !== undefined) throw new Error(`span ${record.id} ended twice`);
        record.endedAt = performance.now();
        record.output = result.output;
        record.usage = result.usage;
        record.error = result.error;
      },
    };
  };
  const { block, ...rest } = overrides;
  return {
    runId: "run-1",
    workflowId: "workflow-1",
    block: {
      id: "block1",
      type: "agent",
      name: "Block 1",
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config: {},
      ...block,
    },
    signal: controller.signal,
    emitDelta: (text) => void deltas.push(text),
    startSpan: (options) => open(options, null),
    outgoingTargets: [],
    variables: {},
    depth: 0,
    ...rest,
    deltas,
    spans,
    abort: (reason) => controller.abort(reason),
  };
}

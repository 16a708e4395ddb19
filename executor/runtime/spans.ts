import type { SimulationSource, SpanRecord } from "@/contract";
import type { ChildSpan, ChildSpanOptions } from "@/core";
import type { GraphNode } from "../graph";
import type { RunContext } from "./run-context";

/** A block's span, reported when it opens and again when it closes (masked by RunContext.span). */
export class BlockSpan {
  readonly record: SpanRecord;
  private readonly startTime: number;
  /** Ends each child span still open, by its id; made with the first child (most blocks open none). */
  private openChildren: Map<string, () => void> | undefined;

  constructor(
    private readonly run: RunContext,
    node: GraphNode,
    parentId: string | null,
    iteration: ReadonlyArray<number>,
    /** The span an earlier attempt opened for this block, when it goes on with it (an ask answered since). */
    resumes?: { id: string; startedAt: string },
  ) {
    this.startTime = resumes ? Date.parse(resumes.startedAt) : run.now();
    this.record = {
      id: resumes?.id ?? run.settings.newId(),
      runId: run.settings.runId,
      parentId,
      kind: "block",
      blockId: node.id,
      blockName: node.name,
      blockType: node.block.type,
      status: "running",
      startedAt: run.iso(this.startTime),
    };
    if (iteration.length > 0) this.record.iteration = [...iteration];
  }

  get id(): string {
    return this.record.id;
  }

  get startedAt(): string {
    return this.record.startedAt;
  }

  /** Test runs: the block's own call was simulated; reported with the span (and its `block.completed`) when it closes. */
  markSimulated(source: SimulationSource): void {
    // A call without a sample outranks the others: the trace must not hide that a call had nothing to answer with.
    if (this.record.simulated !== "no-sample") this.record.simulated = source;
  }

  open(input?: unknown): void {
    if (input !== undefined) this.record.input = input;
    this.run.span({ ...this.record });
  }

  /** Closes the span and returns its duration in milliseconds. */
  close(
    status: SpanRecord["status"],
    fields: Partial<Pick<SpanRecord, "output" | "error" | "usage" | "attempts">> = {},
  ): number {
    // A child still open was cut short (a cancel or timeout closes the block before its handler has
    // unwound): it ends cancelled now, because once the run has ended its own end is not reported.
    if (this.openChildren?.size) for (const cutShort of [...this.openChildren.values()]) cutShort();
    const end = this.run.now();
    const durationMs = end - this.startTime;
    const record = this.record;
    Object.assign(record, fields);
    record.status = status;
    record.endedAt = this.run.iso(end);
    record.durationMs = durationMs;
    this.run.span({ ...record });
    return durationMs;
  }

  /** A child span (model or tool call) opened by the handler through its context. */
  child(options: ChildSpanOptions, parentId = this.record.id): ChildSpan {
    const run = this.run;
    const start = run.now();
    const record: SpanRecord = {
      id: run.settings.newId(),
      runId: run.settings.runId,
      parentId,
      kind: options.kind,
      blockId: this.record.blockId,
      blockName: this.record.blockName,
      blockType: this.record.blockType,
      name: options.name,
      status: "running",
      startedAt: run.iso(start),
    };
    if (options.model !== undefined) record.model = options.model;
    if (options.input !== undefined) record.input = options.input;
    if (this.record.iteration) record.iteration = this.record.iteration;
    run.span({ ...record });
    let ended = false;
    const openChildren = (this.openChildren ??= new Map());
    openChildren.set(record.id, () => {
      if (ended) return;
      ended = true;
      openChildren.delete(record.id);
      const end = run.now();
      Object.assign(record, { status: "cancelled", endedAt: run.iso(end), durationMs: end - start });
      run.span({ ...record });
    });
    return {
      id: record.id,
      child: (childOptions) => this.child(childOptions, record.id),
      markSimulated: (source) => {
        if (!ended) record.simulated = source;
      },
      end: (result: Parameters<ChildSpan["end"]>[0]) => {
        if (ended) return;
        ended = true;
        openChildren.delete(record.id);
        const end = run.now();
        const status = result.error ? (result.cancelled ? "cancelled" : "failed") : "succeeded";
        Object.assign(record, { status, endedAt: run.iso(end), durationMs: end - start });
        if (result.output !== undefined) record.output = result.output;
        if (result.usage) record.usage = result.usage;
        if (result.price) record.price = result.price;
        if (result.error && !result.cancelled)
          record.error = { code: result.error.code, message: result.error.message };
        run.span({ ...record });
      },
    };
  }
}

import "server-only";
import { CancelledError, TrellisError } from "@/executor";
import type { RunEvent } from "@/contract";
import type { ToolApprovalDecision, ToolApprovalRequest } from "@/tools/types";

/** A tool call waiting for a person, as GET /api/runs/:id/approvals lists it. */
export interface PendingApproval extends ToolApprovalRequest {
  requestedAt: string;
}

/** What the approvals need from the run service. */
export interface ApprovalHost {
  /** Publishes an event on a live run's stream; false when this process does not hold the run. */
  emit(runId: string, event: RunEvent): boolean;
  /** Stores the run's status (only while it is running or paused). */
  setStatus(runId: string, status: "running" | "paused"): Promise<void>;
  /** Masks the run's secret values (a tool call's arguments may hold one). */
  redact<T>(runId: string, value: T): T;
}

/**
 * The tool calls of a run still waiting, read from its stored events (for a run another process
 * executes): requested and not yet resolved. A resumed run asks again, so earlier requests lapse.
 */
export function pendingFromEvents(events: readonly RunEvent[]): PendingApproval[] {
  const pending = new Map<string, PendingApproval>();
  for (const event of events) {
    if (event.type === "tool.approval.requested") {
      const { type: _type, ...approval } = event;
      pending.set(event.toolCallId, approval);
    } else if (event.type === "tool.approval.resolved") pending.delete(event.toolCallId);
    else if (event.type === "run.resumed") pending.clear();
  }
  return [...pending.values()];
}

export class ApprovalNotFoundError extends TrellisError {
  constructor(runId: string, toolCallId: string) {
    super("not_found", `No tool call "${toolCallId}" is waiting for approval in run ${runId} (it was already decided, the run ended, or the server restarted)`);
  }
}

interface Waiting {
  approval: PendingApproval;
  decide(decision: ToolApprovalDecision): void;
}

/**
 * Tool calls waiting for a person, in the memory of the process executing the run. A run is
 * `paused` while any of its calls waits. A decision sent to another process reaches this one
 * through the run bus (RunService). If the process dies while a call waits, the run is resumed
 * elsewhere from its checkpoints: the agent block runs again and asks again.
 */
export class RunApprovals {
  private readonly waiting = new Map<string, Map<string, Waiting>>();
  private readonly statusWrites = new Map<string, Promise<void>>();

  constructor(private readonly host: ApprovalHost) {}

  /** Waits for a decision on one tool call; rejects when `signal` aborts (the run is cancelled). */
  async request(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalDecision> {
    if (signal.aborted) throw new CancelledError();
    // What a person sees (the event, the pending list) is masked; the call itself goes on with the real arguments.
    const approval: PendingApproval = this.host.redact(request.runId, { ...request, requestedAt: new Date().toISOString() });
    let decide!: (decision: ToolApprovalDecision) => void;
    let fail!: (error: unknown) => void;
    const decided = new Promise<ToolApprovalDecision>((resolve, reject) => {
      decide = resolve;
      fail = reject;
    });
    const calls = this.waiting.get(request.runId) ?? new Map<string, Waiting>();
    calls.set(request.toolCallId, { approval, decide });
    this.waiting.set(request.runId, calls);
    const published = this.host.emit(request.runId, { type: "tool.approval.requested", ...approval });
    if (!published) {
      this.remove(request.runId, request.toolCallId);
      throw new TrellisError("approval_unavailable", `Run ${request.runId} is not held by this server process, so it cannot wait for approval`);
    }
    const onAbort = () => {
      if (this.remove(request.runId, request.toolCallId)) void this.syncStatus(request.runId);
      fail(new CancelledError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.syncStatus(request.runId);
      return await decided;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Records a person's decision; the waiting call goes on (or returns the denial to the model). */
  async resolve(runId: string, toolCallId: string, decision: ToolApprovalDecision): Promise<PendingApproval> {
    const waiting = this.waiting.get(runId)?.get(toolCallId);
    if (!waiting) throw new ApprovalNotFoundError(runId, toolCallId);
    this.remove(runId, toolCallId);
    const { approval } = waiting;
    const reason = decision.reason?.trim();
    this.host.emit(runId, {
      type: "tool.approval.resolved",
      runId,
      blockId: approval.blockId,
      spanId: approval.spanId,
      toolCallId,
      toolName: approval.toolName,
      approved: decision.approved,
      ...(reason ? { reason } : {}),
      resolvedAt: new Date().toISOString(),
    });
    await this.syncStatus(runId);
    waiting.decide(reason ? { approved: decision.approved, reason } : { approved: decision.approved });
    return approval;
  }

  /** Whether this process holds the tool call waiting. */
  has(runId: string, toolCallId: string): boolean {
    return this.waiting.get(runId)?.has(toolCallId) ?? false;
  }

  list(runId: string): PendingApproval[] {
    return [...(this.waiting.get(runId)?.values() ?? [])].map((waiting) => waiting.approval);
  }

  private remove(runId: string, toolCallId: string): boolean {
    const calls = this.waiting.get(runId);
    const removed = calls?.delete(toolCallId) ?? false;
    if (calls && calls.size === 0) this.waiting.delete(runId);
    return removed;
  }

  /** One status write at a time per run, each reading the state when it runs, so the last one wins. */
  private syncStatus(runId: string): Promise<void> {
    const previous = this.statusWrites.get(runId) ?? Promise.resolve();
    const next = previous
      .then(() => this.host.setStatus(runId, this.waiting.has(runId) ? "paused" : "running"))
      .catch((error: unknown) =>
        console.error(`[trellis] could not store the status of run ${runId}:`, this.host.redact(runId, error instanceof Error ? error.message : String(error))),
      );
    this.statusWrites.set(runId, next);
    void next.then(() => {
      if (this.statusWrites.get(runId) === next) this.statusWrites.delete(runId);
    });
    return next;
  }
}

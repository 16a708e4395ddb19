import "server-only";
import { CancelledError, TrellisError } from "@/executor";
import type { PendingApproval, RunEvent } from "@/contract";
import type { ToolApprovalDecision, ToolApprovalRequest } from "@/tools/types";

/** A tool call waiting for a person, as GET /api/runs/:id/approvals lists it (the contract's pendingApprovalSchema). */
export type { PendingApproval } from "@/contract";

/** The decisions stored in a run's events, by tool call. */
export function decisionsFromEvents(events: readonly RunEvent[]): Map<string, ToolApprovalDecision> {
  const decisions = new Map<string, ToolApprovalDecision>();
  for (const event of events) {
    if (event.type === "tool.approval.resolved")
      decisions.set(
        event.toolCallId,
        event.reason ? { approved: event.approved, reason: event.reason } : { approved: event.approved },
      );
  }
  return decisions;
}

/** The event that records a decision. */
export function resolvedEvent(approval: PendingApproval, decision: ToolApprovalDecision): RunEvent {
  const reason = decision.reason?.trim();
  return {
    type: "tool.approval.resolved",
    runId: approval.runId,
    blockId: approval.blockId,
    spanId: approval.spanId,
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    approved: decision.approved,
    ...(reason ? { reason } : {}),
    resolvedAt: new Date().toISOString(),
  };
}

/** What the approvals need from the run service: the attempt executing the run in this process. */
export interface ApprovalHost {
  /** Publishes an event on the attempt's stream; false when this process does not execute the run. */
  emit(runId: string, event: RunEvent): boolean;
  /** Masks the run's secret values (a tool call's arguments may hold one). */
  redact<T>(runId: string, value: T): T;
  /** A decision already made about the call (stored before this attempt, or sent while it stopped). */
  decided(runId: string, toolCallId: string): ToolApprovalDecision | undefined;
  /** Stops the attempt to wait for a person: the run is parked and holds nothing while it waits. */
  park(runId: string, approval: PendingApproval): void;
}

export class ApprovalNotFoundError extends TrellisError {
  constructor(runId: string, toolCallId: string) {
    super(
      "not_found",
      `No tool call "${toolCallId}" is waiting for approval in run ${runId} (it was already decided, or the run ended)`,
    );
  }
}

/**
 * The approval gate of agent tools (`requireApproval: true`). A call a person has decided goes on
 * at once; otherwise the request is recorded (`tool.approval.requested`) and the run parks: its
 * attempt stops, the run is `paused` and holds no process, memory or connection. A decision on
 * any process resumes it on any worker; the agent's model answers and earlier tool results are
 * replayed from its block memo, so the resumed attempt reaches the same call and finds the decision.
 */
export class RunApprovals {
  constructor(private readonly host: ApprovalHost) {}

  async request(request: ToolApprovalRequest, signal: AbortSignal): Promise<ToolApprovalDecision> {
    const decided = this.host.decided(request.runId, request.toolCallId);
    if (decided) return decided;
    if (signal.aborted) throw new CancelledError();
    // What a person sees (the event, the pending list) is masked; the call itself goes on with the real arguments.
    const approval: PendingApproval = this.host.redact(request.runId, {
      ...request,
      requestedAt: new Date().toISOString(),
    });
    if (!this.host.emit(request.runId, { type: "tool.approval.requested", ...approval })) {
      throw new TrellisError(
        "approval_unavailable",
        `Run ${request.runId} is not executed by this server process, so it cannot wait for approval`,
      );
    }
    this.host.park(request.runId, approval);
    // The park aborted the run's signal; the block stops here and runs again once the call is decided.
    throw new CancelledError("The run stopped to wait for approval");
  }
}

import { isTerminalEvent, type RunEvent } from "@/contract";
import type { PendingApproval } from "./approvals";

/** What a parked run waits on, read from its stored events. */
export interface RunWaits {
  /** Tool calls requested and not yet decided. */
  approvals: PendingApproval[];
  /** Whether a parked run may go on now: nothing it must wait for is left. */
  mayGoOn: boolean;
}

/**
 * The waits of a run, read from its stored events: requested and not yet answered. A resumed
 * attempt that asks again about the same call (its model answer replayed) keeps one entry.
 */
export function waitsFromEvents(events: readonly RunEvent[]): RunWaits {
  const approvals = new Map<string, PendingApproval>();
  for (const event of events) {
    if (event.type === "tool.approval.requested") {
      const { type: _type, ...approval } = event;
      approvals.set(event.toolCallId, approval);
    } else if (event.type === "tool.approval.resolved") approvals.delete(event.toolCallId);
    else if (isTerminalEvent(event)) approvals.clear();
  }
  return { approvals: [...approvals.values()], mayGoOn: approvals.size === 0 };
}

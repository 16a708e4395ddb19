import "server-only";
import type { RunEvent } from "@/contract";
import type { Repositories } from "@/lib/db";
import { RunParkedError, TrellisError } from "@/executor";
import type { ToolApprovalDecision } from "@/tools/types";
import { ApprovalNotFoundError, resolvedEvent, RunApprovals, type PendingApproval } from "./approvals";
import { waitsFromEvents } from "./run-waits";
import type { LiveEntry, RunDistribution } from "./run-service-types";

/** What the waits need from the run service: its live attempts, its storage, and how a run goes on. */
export interface PeopleWaitsHost {
  repositories: Pick<Repositories, "runs" | "runEvents">;
  /** The attempt executing the run in this process now, if any (not one that ended or paused). */
  activeEntry(runId: string): LiveEntry | undefined;
  /** The attempt of this process that holds the run, even one that is stopping (its `done` says when it has parked). */
  liveEntry(runId: string): LiveEntry | undefined;
  distribution(): RunDistribution | undefined;
  workerId(): string;
  /** Executes a parked run again in this process (without a queue). */
  goOnHere(runId: string): void;
}

/**
 * A parked run waits on people: tool calls waiting for approval and asks waiting for an answer.
 * Their answers are stored in the run's events (on the attempt that still runs, or on the parked
 * run's stored stream) and the run goes on, on any worker, once its waits allow it
 * (`waitsFromEvents(...).mayGoOn`). Shared by approvals and asks so there is one pause mechanism.
 */
export class PeopleWaits {
  /** The approval gate of agent tools, over the service's live attempts. */
  readonly approvals: RunApprovals;

  constructor(private readonly host: PeopleWaitsHost) {
    this.approvals = new RunApprovals({
      emit: (runId, event) => {
        const entry = host.activeEntry(runId);
        if (!entry) return false;
        entry.attempt.recorder.event(event);
        return true;
      },
      redact: (runId, value) => host.liveEntry(runId)?.attempt.redactor.redact(value) ?? value,
      decided: (runId, toolCallId) => host.liveEntry(runId)?.decisions.get(toolCallId),
      park: (runId, approval) => {
        const entry = host.activeEntry(runId);
        if (!entry) return;
        if (!entry.durable) {
          throw new TrellisError(
            "approval_unavailable",
            "A workflow run by another (as a tool or a Workflow block) cannot stop to wait for approval; require approval in the calling workflow instead (on its agent's tool), or run this workflow on its own",
          );
        }
        entry.requested.set(approval.toolCallId, approval);
        entry.controller.abort(
          new RunParkedError({
            reason: "approval",
            blockId: approval.blockId,
            spanId: approval.spanId,
            toolCallId: approval.toolCallId,
          }),
        );
      },
    });
  }

  /** The stored events of a run, once any attempt of this process holding it has stopped (what it waited on is stored by then). */
  async storedEvents(runId: string) {
    await this.host.liveEntry(runId)?.done.catch(() => {});
    return (await this.host.repositories.runEvents.listAfter(runId, 0)).map((item) => item.event);
  }

  private recordDecision(entry: LiveEntry, approval: PendingApproval, decision: ToolApprovalDecision): void {
    entry.decisions.set(approval.toolCallId, decision);
    entry.attempt.recorder.event(resolvedEvent(approval, decision));
  }

  /** The tool calls of a run waiting for a person, wherever it executes. */
  async pendingApprovals(runId: string): Promise<PendingApproval[]> {
    const entry = this.host.activeEntry(runId);
    if (entry) return [...entry.requested.values()].filter((approval) => !entry.decisions.has(approval.toolCallId));
    return waitsFromEvents(await this.storedEvents(runId)).approvals;
  }

  /**
   * Decides a waiting tool call wherever its run is: a parked run gets the decision in its stored
   * events and, once its waits allow, goes on (on any worker); a run still stopping in this
   * process or another records it there. Answers the call decided.
   * @throws ApprovalNotFoundError when no such call waits
   */
  async decideApproval(
    workspaceId: string,
    runId: string,
    toolCallId: string,
    decision: ToolApprovalDecision,
  ): Promise<PendingApproval> {
    const entry = this.host.activeEntry(runId);
    const local = entry?.requested.get(toolCallId);
    if (entry && local) {
      if (entry.decisions.has(toolCallId)) throw new ApprovalNotFoundError(runId, toolCallId);
      this.recordDecision(entry, local, decision);
      return local;
    }
    const waiting = (await this.pendingApprovals(runId)).find((approval) => approval.toolCallId === toolCallId);
    if (!waiting) throw new ApprovalNotFoundError(runId, toolCallId);
    if ((await this.storeOnParked(workspaceId, runId, resolvedEvent(waiting, decision))) === "stored") return waiting;
    const run = await this.host.repositories.runs.get(workspaceId, runId);
    const distribution = this.host.distribution();
    if (!distribution || !run.worker || run.worker === this.host.workerId())
      throw new ApprovalNotFoundError(runId, toolCallId);
    const reason = decision.reason?.trim();
    await distribution.bus.publish({
      kind: "approval",
      runId,
      toolCallId,
      approved: decision.approved,
      ...(reason ? { reason } : {}),
    });
    return waiting;
  }

  /**
   * Stores an answer on a parked run and resumes it once its waits allow: `not_parked` when a
   * process holds the run, `taken` when the ask already has an answer.
   */
  async storeOnParked(workspaceId: string, runId: string, event: RunEvent): Promise<"stored" | "not_parked" | "taken"> {
    const seq = await this.host.repositories.runEvents.appendOnceIfParked(runId, event);
    if (seq === null) return "not_parked";
    if (seq === "taken") return "taken";
    this.host.distribution()?.signals.events(runId, seq);
    await this.resumeIfFree(workspaceId, runId);
    return "stored";
  }

  /** A parked run whose waits allow it goes on, on any worker (or here, without a queue). */
  async resumeIfFree(workspaceId: string, runId: string): Promise<void> {
    const { runs, runEvents } = this.host.repositories;
    const run = await runs.get(workspaceId, runId);
    if (run.status !== "paused" || run.worker !== null) return;
    const events = await runEvents.listAfter(runId, 0);
    if (!waitsFromEvents(events.map((item) => item.event)).mayGoOn) return;
    const attempt = `after-${events.at(-1)?.seq ?? 0}`;
    const distribution = this.host.distribution();
    if (distribution) await distribution.queue.enqueue(runId, workspaceId, attempt);
    else this.host.goOnHere(runId);
  }
}

import "server-only";
import type { RunIntake } from "../run-intake";
import type { RunQueue } from "./run-queue";
import { processLogger } from "@/lib/observability";

/** Hand-overs waiting beyond this are left to the recovery sweep, which hands over every run still queued after 30 s. */
export const MAX_PENDING_HAND_OVERS = 10_000;
/** Hand-overs sent to the queue at once: each is a short transaction on the queue's pool. */
const CONCURRENCY = 4;

/**
 * Hands stored runs to the durable queue after their start was answered. A start's answer then
 * waits for one stored row, not for the queue's transaction as well; the run is safe either way,
 * since a queued run whose hand-over never happens (a crash, a failure, a full backlog) is handed
 * over by the recovery sweep. During a burst, hand-overs wait while its starts are being accepted, like execution.
 */
export class HandOver {
  private readonly pending: Array<{ runId: string; workspaceId: string }> = [];
  private pumping: Promise<void> | undefined;

  constructor(
    private readonly queue: Pick<RunQueue, "enqueue">,
    private readonly intake: Pick<RunIntake, "beforeExecuting">,
    private readonly log: (message: string) => void = (message) => processLogger().error(message),
  ) {}

  submit(runId: string, workspaceId: string): void {
    if (this.pending.length >= MAX_PENDING_HAND_OVERS) {
      this.log(
        `run ${runId} stays queued for the recovery sweep: ${MAX_PENDING_HAND_OVERS} hand-overs are already waiting`,
      );
      return;
    }
    this.pending.push({ runId, workspaceId });
    this.pumping ??= this.pump().finally(() => (this.pumping = undefined));
  }

  /** Resolves once every hand-over submitted so far has been tried (stopping, tests). */
  async flush(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private async pump(): Promise<void> {
    while (this.pending.length > 0) {
      await this.intake.beforeExecuting();
      const batch = this.pending.splice(0, CONCURRENCY);
      await Promise.all(
        batch.map(({ runId, workspaceId }) =>
          this.queue.enqueue(runId, workspaceId).catch((error: unknown) => {
            this.log(
              `run ${runId} could not be handed to the queue now (the recovery sweep will): ${error instanceof Error ? error.message : String(error)}`,
            );
          }),
        ),
      );
    }
  }
}

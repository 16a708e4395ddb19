import "server-only";
import type { AskAnswer, AskAnswerRequest, PendingAsk, RunEvent } from "@/contract";
import { checkpointKey, TrellisError } from "@/executor";
import { checkedAnswer, timedOutAnswer } from "./ask-answers";
import type { PeopleWaits, PeopleWaitsHost } from "./people-waits";
import { waitsFromEvents } from "./run-waits";
import { runLog } from "@/lib/observability";

export class AskNotFoundError extends TrellisError {
  constructor(runId: string, spanId: string) {
    super("not_found", `Run ${runId} has no ask "${spanId}"`);
  }
}

/** 409: the ask was answered already, or its run no longer waits for it. */
export class AskNotWaitingError extends TrellisError {
  constructor(spanId: string, why: string) {
    super("conflict", `The ask "${spanId}" is not waiting for an answer: ${why}`);
  }
}

function answeredEvent(ask: PendingAsk, answer: AskAnswer): RunEvent {
  return {
    type: "ask.answered",
    runId: ask.runId,
    blockId: ask.blockId,
    spanId: ask.spanId,
    ...(ask.iteration ? { iteration: ask.iteration } : {}),
    ...answer,
  };
}

/**
 * The asks of runs (docs/CONTRACT.md section 10), wherever the run is: an attempt running in this
 * process gets an answer at once (its waiting block goes on), a parked run gets it in its stored
 * events and goes on on any worker, and a run another process holds gets it through the run bus.
 * An ask's deadline fires in the attempt that waits, or, for a parked run, in `timeOutDue`, which
 * every worker calls from its lease loop, so it survives restarts.
 */
export class RunAsks {
  constructor(
    private readonly host: PeopleWaitsHost,
    private readonly waits: PeopleWaits,
  ) {}

  /** The asks of a run waiting for an answer now. */
  async pending(runId: string): Promise<PendingAsk[]> {
    const answers = this.host.activeEntry(runId)?.answers;
    if (answers) return answers.waiting();
    return waitsFromEvents(await this.waits.storedEvents(runId)).asks;
  }

  /**
   * Answers a waiting ask: checked against its choices and fields (400 naming what is wrong),
   * 409 when it was answered already or its run ended, 404 for an ask the run never had.
   */
  async answer(
    workspaceId: string,
    runId: string,
    spanId: string,
    request: AskAnswerRequest,
    answeredBy: string,
  ): Promise<PendingAsk> {
    const answers = this.host.activeEntry(runId)?.answers;
    const live = answers?.waiting().find((ask) => ask.spanId === spanId);
    if (answers && live && answers.deliver(spanId, checkedAnswer(live, request, answeredBy))) return live;
    for (let tries = 0; ; tries += 1) {
      const outcome = await this.answerStored(workspaceId, runId, spanId, request, answeredBy);
      if (outcome !== "held here") return outcome;
      // This process has just taken the run to go on with it and is starting its attempt: a moment, then again.
      if (tries >= 100) throw new AskNotWaitingError(spanId, "its run is busy starting again; try again");
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  }

  private async answerStored(
    workspaceId: string,
    runId: string,
    spanId: string,
    request: AskAnswerRequest,
    answeredBy: string,
  ): Promise<PendingAsk | "held here"> {
    const waits = waitsFromEvents(await this.waits.storedEvents(runId));
    const waiting = waits.asks.find((ask) => ask.spanId === spanId);
    if (!waiting) {
      const answered = waits.answered.get(spanId);
      if (answered)
        throw new AskNotWaitingError(
          spanId,
          answered.timedOut ? `it timed out at ${answered.answeredAt}` : `it was answered at ${answered.answeredAt}`,
        );
      throw new AskNotFoundError(runId, spanId);
    }
    const answer = checkedAnswer(waiting, request, answeredBy);
    const stored = await this.waits.storeOnParked(workspaceId, runId, answeredEvent(waiting, answer));
    if (stored === "taken") throw new AskNotWaitingError(spanId, "it was answered a moment ago");
    if (stored === "stored") return waiting;
    if (this.deliverLocal(runId, waiting, answer)) return waiting;
    const run = await this.host.repositories.runs.get(workspaceId, runId);
    const distribution = this.host.distribution();
    if (run.status !== "running" && run.status !== "paused")
      throw new AskNotWaitingError(spanId, `its run has ended (${run.status})`);
    if (!distribution || !run.worker || run.worker === this.host.workerId()) return "held here";
    await distribution.bus.publish({ kind: "answer", runId, spanId, ask: waiting, answer });
    return waiting;
  }

  /**
   * Gives an answer to the attempt of this process that holds the run: to its waiting ask, or,
   * when the attempt has not reached the ask again yet, kept for it and recorded at once (so it
   * is stored even if the attempt stops first). False when no attempt here holds the run.
   */
  deliverLocal(runId: string, ask: PendingAsk, answer: AskAnswer): boolean {
    const entry = this.host.activeEntry(runId);
    if (!entry?.answers) return false;
    if (entry.answers.deliver(ask.spanId, answer)) return true;
    entry.answers.accept(checkpointKey(ask.blockId, ask.iteration ?? []), answer);
    entry.attempt.recorder.event(answeredEvent(ask, answer));
    return true;
  }

  /**
   * Times out a parked run's asks here at their deadline, if this process still lives then; the
   * workers' lease loop (`timeOutDue`) does it otherwise.
   */
  async watchDeadlines(runId: string): Promise<void> {
    const deadlines = (await this.pending(runId)).flatMap((ask) => (ask.timeoutAt ? [Date.parse(ask.timeoutAt)] : []));
    if (deadlines.length === 0) return;
    const delay = Math.max(0, Math.min(...deadlines) - Date.now());
    const fire = () =>
      void this.timeOutDue().catch((error: unknown) => runLog(runId).error("could not time out its asks", error));
    setTimeout(fire, Math.min(delay + 50, 2 ** 31 - 1)).unref?.();
  }

  /** Answers, as timed out, the asks of parked runs whose deadline has passed; the runs go on along their `timeout` handles. */
  async timeOutDue(now = new Date()): Promise<number> {
    let count = 0;
    for (const { id: runId, workspaceId } of await this.host.repositories.runEvents.parkedWithDueAsks(now)) {
      const events = (await this.host.repositories.runEvents.listAfter(runId, 0)).map((item) => item.event);
      for (const ask of waitsFromEvents(events).asks) {
        if (!ask.timeoutAt || Date.parse(ask.timeoutAt) > now.getTime()) continue;
        if ((await this.waits.storeOnParked(workspaceId, runId, answeredEvent(ask, timedOutAnswer()))) === "stored")
          count += 1;
      }
    }
    return count;
  }
}

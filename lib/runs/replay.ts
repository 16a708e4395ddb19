import "server-only";
import { LIVE_RUN_STATUSES, type AskAnswer, type RunTrigger } from "@/contract";
import { checkpointKey } from "@/executor";
import type { Repositories } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import type { ReplayRecordings } from "./durable/run-execution";
import type { LiveRun, StartRun } from "./run-service-types";

/** How many replays (and re-runs) are followed back to the runs that really called the models. */
const MAX_REPLAY_CHAIN = 50;

/**
 * Replay: a new run of the workflow's current draft with the finished run's input, in which every
 * model and tool call is answered from what the source run recorded (its block memos) and nothing
 * is sent: no provider is contacted, no tool acts, the run costs $0. Edits to blocks that call
 * nothing (a condition, a function, a response) take effect; a call the source run did not make
 * with the same request fails its block `not_recorded`.
 */
export async function startReplay(
  runs: { start: StartRun },
  repositories: Pick<Repositories, "runs">,
  workspaceId: string,
  request: { runId: string; trigger: RunTrigger },
): Promise<{ live: LiveRun; replayOf: string }> {
  const { runId } = request;
  // Another workspace's run is not found (404).
  const source = await repositories.runs.get(workspaceId, runId);
  if (LIVE_RUN_STATUSES.includes(source.status)) {
    throw new RequestError(
      "conflict",
      `Run "${runId}" is still going (it is ${source.status}): replay it once it has ended.`,
    );
  }
  // A child run (of a workflow tool or Workflow block) is not durable and records nothing of its own: its parent's block holds the answers.
  if (await repositories.runs.parentRunOf(workspaceId, runId)) {
    throw new RequestError(
      "invalid_request",
      `Run "${runId}" was started by another run (a workflow tool or Workflow block) and keeps no recordings: replay the parent run instead.`,
    );
  }
  const live = await runs.start(workspaceId, source.workflowId, source.input, {
    trigger: { ...request.trigger, kind: "replay" },
    replayOf: runId,
    ...(source.test ? { test: true } : {}),
  });
  return { live, replayOf: runId };
}

/**
 * What a replay answers from: the source run's block memos (model answers, tool results, requests'
 * answers) and the answers people gave its Ask blocks, and, behind them, those of the run the source
 * replayed (a replay records nothing new) or re-ran from a block (the blocks it reused recorded
 * nothing in it). The nearer run's recording wins.
 */
export async function loadRecordings(
  repositories: {
    checkpoints: Pick<Repositories["checkpoints"], "load">;
    runs: Pick<Repositories["runs"], "recordingSourceOf">;
    runEvents: Pick<Repositories["runEvents"], "listAfter">;
  },
  replayOf: string,
): Promise<ReplayRecordings> {
  const memos = new Map<string, unknown>();
  // People's answers to the Ask blocks: a replay's asks take them instead of waiting (the nearer run's first).
  const answers = new Map<string, AskAnswer>();
  let runId: string | null = replayOf;
  for (let hop = 0; runId && hop < MAX_REPLAY_CHAIN; hop += 1) {
    const current: string = runId;
    const [stored, events] = await Promise.all([
      repositories.checkpoints.load(current),
      repositories.runEvents.listAfter(current, 0),
    ]).catch((error: unknown) => {
      throw new Error(
        `The recordings of run ${current} that this replay answers from could not be read (${error instanceof Error ? error.message : String(error)}); run the workflow instead.`,
      );
    });
    for (const [key, value] of stored.memos) if (!memos.has(key)) memos.set(key, value);
    for (const { event } of events) {
      if (event.type !== "ask.answered") continue;
      const key = checkpointKey(event.blockId, event.iteration ?? []);
      const { choice, text, fields, answeredBy, answeredAt, timedOut } = event;
      if (!answers.has(key)) answers.set(key, { choice, text, fields, answeredBy, answeredAt, timedOut });
    }
    runId = await repositories.runs.recordingSourceOf(current);
  }
  return { runId: replayOf, memos, answers: [...answers] };
}

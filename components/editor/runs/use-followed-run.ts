"use client";

import { useQuery } from "@tanstack/react-query";
import { useEditorStore } from "@/components/editor/store";
import { api } from "@/contract";
import { queuePollInterval, recoveryCount, shownQueuePosition, waitsInQueue } from "./durable-run";
import { endedRunPollInterval, type StoredRunFacts } from "./run-clock";

export interface FollowedRunState {
  /** The run waits for a worker (the view and the API both say queued). */
  waiting: boolean;
  /** While the run waits for a worker: how many runs wait ahead of it, plus one (undefined until known). */
  queuePosition?: number;
  /** Times another process took the run over after its process stopped. */
  recoveries: number;
  /** The run as the API last answered (undefined until it has): its stored status, duration and queue time. */
  stored?: StoredRunFacts;
}

/**
 * The followed run as GET /api/runs/:id has it (the trace's query), asked again every second
 * while it is queued and its stream is silent (queuePollInterval), once more when it ends, and
 * every second after that while the stored row has not caught up with the end (endedRunPollInterval).
 * Each selector picks a primitive, so streamed events do not re-render its callers.
 */
export function useFollowedRun(): FollowedRunState {
  const runId = useEditorStore((state) => state.run.view.runId);
  const status = useEditorStore((state) => state.run.view.status);
  const eventsArrived = useEditorStore((state) => state.run.view.lastSeq > 0);
  const ended = useEditorStore((state) => state.run.view.ended);
  const viewRecoveries = useEditorStore((state) => state.run.view.recoveries);
  const run = useQuery({
    queryKey: ["run", runId],
    queryFn: () => api.runs.get(runId!),
    enabled: runId !== null,
    refetchInterval: (query) =>
      queuePollInterval({ status, eventsArrived, ended }, query.state.data) ||
      endedRunPollInterval({ ended }, query.state.data),
  });
  return {
    waiting: waitsInQueue(status, run.data),
    queuePosition: shownQueuePosition(status, run.data),
    recoveries: recoveryCount(viewRecoveries, run.data?.recoveries),
    ...(run.data
      ? { stored: { status: run.data.status, durationMs: run.data.durationMs, queuedAt: run.data.queuedAt } }
      : {}),
  };
}

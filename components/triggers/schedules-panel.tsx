"use client";

import { useState } from "react";
import type { CreateScheduleRequest, ScheduleView } from "@/contract";
import { useCanEdit } from "@/components/auth/workspace-context";
import { ScheduleForm } from "./schedule-form";
import { ScheduleRow } from "./schedule-row";
import { useScheduleChanges, useSchedules } from "./use-schedules";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A workflow's schedules (docs/CONTRACT.md section 9), self-contained: the list with pause,
 * resume and delete, and the form for a new one with its next five fire times as one types.
 * Schedules run the active deployment; a viewer sees them and changes nothing.
 */
export function SchedulesPanel({ workflowId }: { workflowId: string }) {
  const schedules = useSchedules(workflowId);
  const changes = useScheduleChanges(workflowId);
  const canEdit = useCanEdit();
  const [error, setError] = useState<string | null>(null);

  async function create(request: CreateScheduleRequest): Promise<boolean> {
    setError(null);
    try {
      await changes.create.mutateAsync(request);
      return true;
    } catch (failure) {
      setError(`Could not create the schedule: ${errorText(failure)}`);
      return false;
    }
  }

  async function act(what: string, change: () => Promise<unknown>) {
    setError(null);
    try {
      await change();
    } catch (failure) {
      setError(`Could not ${what}: ${errorText(failure)}`);
    }
  }

  const remove = (schedule: ScheduleView) => {
    if (
      !window.confirm(`Delete the schedule "${schedule.cron}" (${schedule.timezone})? It stops firing; its runs stay.`)
    )
      return;
    void act("delete the schedule", () => changes.remove.mutateAsync(schedule.id));
  };

  const busy = changes.setPaused.isPending || changes.remove.isPending;
  return (
    <section className="space-y-4" aria-label="Schedules">
      <div>
        <h2 className="text-lg font-semibold">Schedules</h2>
        <p className="text-sm text-slate-600">
          Each fire time runs the <strong>active deployment</strong> once, however many worker processes are up. A time
          missed while Trellis was not running runs once when it starts, marked as missed.
        </p>
      </div>
      {canEdit ? <ScheduleForm workflowId={workflowId} pending={changes.create.isPending} onCreate={create} /> : null}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {schedules.isError ? (
        <p role="alert" className="flex items-center gap-2 text-sm text-red-700">
          Could not load the schedules: {errorText(schedules.error)}
          <button type="button" className="btn-secondary" onClick={() => void schedules.refetch()}>
            Retry
          </button>
        </p>
      ) : schedules.data === undefined ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : schedules.data.length === 0 ? (
        <p className="text-sm text-slate-500">No schedules yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Schedule list">
          {schedules.data.map((schedule) => (
            <ScheduleRow
              key={schedule.id}
              schedule={schedule}
              canEdit={canEdit}
              busy={busy}
              onPause={(paused) =>
                void act(paused ? "pause the schedule" : "resume the schedule", () =>
                  changes.setPaused.mutateAsync({ id: schedule.id, paused }),
                )
              }
              onRemove={() => remove(schedule)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

"use client";

import { Pause, Play, Trash2 } from "lucide-react";
import type { ScheduleFireView, ScheduleView } from "@/contract";
import { runHref } from "@/components/ui/run-href";
import { fireTimeText } from "./schedule-format";

/** One fire: when, what came of it (its run, or why none started), and whether it was a missed time run late. */
function FireItem({ fire, timezone, workflowId }: { fire: ScheduleFireView; timezone: string; workflowId: string }) {
  return (
    <li className="space-y-0.5" data-testid="schedule-fire">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono">{fireTimeText(fire.fireAt, timezone)}</span>
        {fire.runId ? (
          <a
            className="text-indigo-600 underline"
            href={runHref(workflowId, fire.runId)}
            data-testid="schedule-fire-run-link"
          >
            run {fire.runId.slice(-8)}
          </a>
        ) : null}
        {fire.evaluationId ? (
          <span className="text-slate-600" data-testid="schedule-fire-evaluation">
            evaluation {fire.evaluationId.slice(-8)} (Evaluations › Runs)
          </span>
        ) : null}
        {fire.runStatus ? <span className="text-slate-500">{fire.runStatus}</span> : null}
        {fire.missed ? <span className="rounded bg-amber-100 px-1 text-amber-900">missed, run late</span> : null}
      </div>
      {fire.missed ? (
        <p className="text-amber-900" data-testid="schedule-fire-missed">
          Trellis was not running at this time, so it ran once at start ({fireTimeText(fire.claimedAt, timezone)}) for
          the times missed, not once for each.
        </p>
      ) : null}
      {fire.error ? (
        <p className="text-red-700" role="status">
          No run started: {fire.error}
        </p>
      ) : null}
      {!fire.error && !fire.runId && !fire.evaluationId ? (
        <p className="text-slate-500">
          No run recorded yet (the process that claimed it may have stopped as it fired).
        </p>
      ) : null}
    </li>
  );
}

/** A schedule: its expression and zone, paused or not, the next fire times and the latest fires. */
export function ScheduleRow({
  schedule,
  canEdit,
  busy,
  onPause,
  onRemove,
}: {
  schedule: ScheduleView;
  canEdit: boolean;
  busy: boolean;
  onPause(paused: boolean): void;
  onRemove(): void;
}) {
  const label = `${schedule.cron} (${schedule.timezone})`;
  return (
    <li className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="schedule-row">
      <div className="flex flex-wrap items-center gap-2">
        <code className="font-mono font-medium">{schedule.cron}</code>
        <span className="text-slate-600">{schedule.timezone}</span>
        <span
          className={`rounded px-1.5 text-xs ${schedule.paused ? "bg-slate-200 text-slate-700" : "bg-emerald-100 text-emerald-900"}`}
          data-testid="schedule-state"
        >
          {schedule.paused ? "Paused" : "Active"}
        </span>
        <span className="flex-1" />
        {canEdit ? (
          <>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy}
              aria-label={`${schedule.paused ? "Resume" : "Pause"} ${label}`}
              onClick={() => onPause(!schedule.paused)}
            >
              {schedule.paused ? <Play size={14} aria-hidden /> : <Pause size={14} aria-hidden />}{" "}
              {schedule.paused ? "Resume" : "Pause"}
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={busy}
              aria-label={`Delete ${label}`}
              onClick={onRemove}
            >
              <Trash2 size={14} aria-hidden /> Delete
            </button>
          </>
        ) : null}
      </div>
      {Object.keys(schedule.input).length > 0 ? (
        <p className="text-xs text-slate-600">
          Start inputs: <code className="font-mono">{JSON.stringify(schedule.input)}</code>
        </p>
      ) : null}
      <div className="text-xs">
        {schedule.paused ? (
          <p className="text-slate-600">
            Paused: nothing fires. Times that pass while it is paused are skipped, not run when it resumes.
          </p>
        ) : (
          <>
            <p className="text-slate-600">Next fire times:</p>
            <ol className="list-inside list-decimal font-mono text-slate-800" data-testid="schedule-next-runs">
              {schedule.nextRuns.map((at) => (
                <li key={at}>{fireTimeText(at, schedule.timezone)}</li>
              ))}
            </ol>
          </>
        )}
      </div>
      <div className="text-xs">
        <p className="text-slate-600">{schedule.fires.length > 0 ? "Latest fires:" : "Not fired yet."}</p>
        {schedule.fires.length > 0 ? (
          <ul className="mt-1 space-y-1">
            {schedule.fires.map((fire) => (
              <FireItem key={fire.fireAt} fire={fire} timezone={schedule.timezone} workflowId={schedule.workflowId} />
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

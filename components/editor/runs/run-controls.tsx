"use client";

import { FlaskConical, Play, Square } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import {
  isLive,
  testRunHasIssues,
  useEditorStore,
  useEditorStoreApi,
  workflowHasIssues,
} from "@/components/editor/store";
import { formatCost, formatDuration, formatTokens, figureMarks } from "@/components/ui/format";
import { RunStatusBadge } from "@/components/ui/run-badges";
import { runClock, waitReason, type StoredRunFacts } from "./run-clock";
import { useNow } from "./use-now";
import { RunBudgetMeter } from "./run-budget-meter";
import { RunInputForm } from "./run-input-form";
import { useFollowedRun } from "./use-followed-run";
import { useRunActions } from "./use-run-actions";

/**
 * The run's time: how long it has waited while it waits to start (why, on hover; the console says
 * it too), its time so far while it goes, its duration once it has ended.
 */
function RunDuration({
  live,
  stored,
  queuePosition,
}: {
  live: boolean;
  stored: StoredRunFacts | undefined;
  queuePosition: number | undefined;
}) {
  const view = useEditorStore((state) => state.run.view);
  const now = useNow(live);
  const clock = runClock(view, stored, now);
  if (!clock) return null;
  const reason = clock.phase === "waiting" ? waitReason(view, stored, queuePosition) : null;
  return (
    <span data-testid="run-duration" data-phase={clock.phase} title={reason ?? undefined}>
      {formatDuration(clock.ms)}
    </span>
  );
}

function RunTotals() {
  const view = useEditorStore((state) => state.run.view);
  const { queuePosition, stored } = useFollowedRun();
  if (view.status === "idle") return null;
  const live = isLive(view);
  const marks = figureMarks(view);
  return (
    <div
      className="flex min-w-0 items-center gap-2 overflow-hidden text-xs text-slate-600"
      data-testid="run-totals"
      title={live ? "Totals so far: the sum of the blocks that have finished" : "The run's totals"}
    >
      <RunStatusBadge status={view.status} inLine={{ position: queuePosition }} testId="run-status" />
      <RunDuration live={live} stored={stored} queuePosition={queuePosition} />
      {/* Beside the status, the tokens are the figure a narrow window can spare: the trace has them. */}
      {view.tokens && (
        <span data-testid="run-tokens" className="max-xl:sr-only">
          {formatTokens(view.tokens.total, view.estimated)}
        </span>
      )}
      {view.tokens && <span data-testid="run-cost">{formatCost(view)}</span>}
      {view.budget && <RunBudgetMeter budget={view.budget} spent={view.cost?.total ?? 0} />}
      {marks.length > 0 && <span className="text-amber-700">({marks.join(", ")})</span>}
    </div>
  );
}

/**
 * Toolbar: Run and Test run (with the start block's inputs), Cancel, and the followed run's status and totals.
 * A read-only editor (a viewer's) keeps only the status and totals of a run opened from the history.
 * While the workflow has issues, Run and Test run are disabled and `fixList` (the list of what to fix) stands beside them.
 */
export function RunControls({ fixList }: { fixList?: ReactNode }) {
  const actions = useRunActions();
  const live = useEditorStore((state) => isLive(state.run.view));
  const actionError = useEditorStore((state) => state.run.actionError);
  // Which form is open: a run's, or a test run's (side effects answered from the blocks' samples).
  const [formOpen, setFormOpen] = useState<"run" | "test" | null>(null);
  const runId = useEditorStore((state) => state.run.view.runId);
  // Which run was asked to stop: a run started after it is not "cancelling".
  const [cancelling, setCancelling] = useState<string | null>(null);
  const readOnly = useEditorStore((state) => state.readOnly);
  const store = useEditorStoreApi();
  // With issues the workflow cannot run: Run only shows the list of what to fix.
  const blocked = useEditorStore(workflowHasIssues);
  // A block with no key for its model still answers a test run from its recorded answer.
  const testBlocked = useEditorStore(testRunHasIssues);
  const blockedFor = (form: "run" | "test") => (form === "run" ? blocked : testBlocked);
  const toggleForm = (form: "run" | "test") => {
    if (blockedFor(form)) return store.getState().attemptRun();
    setFormOpen((open) => (open === form ? null : form));
  };
  // Mod+Enter anywhere in the editor opens the Run form (the form itself starts the run on Mod+Enter).
  useEffect(() => {
    if (readOnly || live) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest("dialog[open], [role=dialog]")) return;
      event.preventDefault();
      if (blocked) store.getState().attemptRun();
      else setFormOpen("run");
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [readOnly, live, blocked, store]);
  if (readOnly) return <RunTotals />;
  return (
    <div className="relative flex min-w-0 items-center gap-2">
      <RunTotals />
      {actionError && (
        <span
          className="max-w-64 truncate text-xs text-red-700"
          role="alert"
          title={actionError}
          data-testid="run-error"
        >
          {actionError}
        </span>
      )}
      {live ? (
        <button
          type="button"
          className="btn-secondary text-red-700"
          data-testid="cancel-run"
          disabled={cancelling === runId}
          onClick={() => {
            setCancelling(runId);
            void actions.cancel();
          }}
        >
          <Square className="h-4 w-4" aria-hidden /> {cancelling === runId ? "Cancelling…" : "Cancel"}
        </button>
      ) : (
        <>
          {fixList}
          <button
            type="button"
            className="btn-secondary aria-disabled:opacity-50"
            data-testid="test-run-button"
            aria-disabled={testBlocked}
            title="Run with simulated side effects: API, web, fetch and side-effecting tool calls answer from each block's test sample and are not sent; models run for real unless a block uses a recorded answer"
            onClick={() => toggleForm("test")}
            aria-expanded={formOpen === "test"}
          >
            <FlaskConical className="h-4 w-4" aria-hidden /> <span className="max-lg:sr-only">Test run</span>
          </button>
          <button
            type="button"
            className="btn-primary aria-disabled:opacity-50"
            data-testid="run-button"
            aria-disabled={blocked}
            title={blocked ? "Finish what the list beside Run names first" : undefined}
            onClick={() => toggleForm("run")}
            aria-expanded={formOpen === "run"}
          >
            <Play className="h-4 w-4" aria-hidden /> <span className="max-lg:sr-only">Run</span>
          </button>
        </>
      )}
      {formOpen && !live && !blockedFor(formOpen) && (
        <RunInputForm
          key={formOpen}
          test={formOpen === "test"}
          onSubmit={(input) => actions.start(input, { test: formOpen === "test" })}
          onClose={() => setFormOpen(null)}
        />
      )}
    </div>
  );
}

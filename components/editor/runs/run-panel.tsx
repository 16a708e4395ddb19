"use client";

import { ChevronDown, ChevronUp } from "lucide-react";
import { useEditorStore, type RunPanelTab } from "@/components/editor/store";
import { ExplainFailure } from "./explain-failure";
import { ReplayButton, ReplayOfLink } from "./replay-controls";
import { RerunOfLink } from "./rerun-of-link";
import { ResumedBadge } from "@/components/ui/run-badges";
import { RunConsole } from "./run-console";
import { RunHistory } from "./run-history";
import { FollowedTestRun } from "./simulation-badges";
import { TracePanel } from "./trace-panel";
import { useFollowedRun } from "./use-followed-run";

const TABS: Array<{ id: RunPanelTab; label: string }> = [
  { id: "console", label: "Console" },
  { id: "trace", label: "Trace" },
  { id: "history", label: "History" },
];

/** Marks a followed run that another process went on with after its own stopped. */
function RunResumed() {
  const { recoveries } = useFollowedRun();
  return <ResumedBadge recoveries={recoveries} testId="run-resumed" />;
}

/**
 * The bottom panel of the editor: console, trace and run history; open, it fills the resizable
 * panel it is given (editor-panels.tsx). The run stream is kept open by the layout, not here, so
 * opening and closing the panel never drops it.
 */
export function RunPanel() {
  const open = useEditorStore((state) => state.run.panelOpen);
  const tab = useEditorStore((state) => state.run.tab);
  const showTab = useEditorStore((state) => state.showRunTab);
  const setPanelOpen = useEditorStore((state) => state.setRunPanelOpen);
  const waiting = useEditorStore(
    (state) =>
      state.run.view.approvals.filter((approval) => !approval.decision).length +
      state.run.view.asks.filter((ask) => !ask.answer).length,
  );
  return (
    <section
      className={`flex shrink-0 flex-col border-t border-slate-200 bg-white ${open ? "h-full" : ""}`}
      data-testid="run-panel"
      data-open={open}
    >
      <div className="flex items-center gap-1 border-b border-slate-100 px-2" role="tablist">
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={open && tab === item.id}
            data-testid={`run-tab-${item.id}`}
            className={`px-2 py-1 text-xs font-medium ${open && tab === item.id ? "border-b-2 border-indigo-500 text-indigo-700" : "text-slate-500 hover:text-slate-800"}`}
            onClick={() => showTab(item.id)}
          >
            {item.label}
            {item.id === "console" && waiting > 0 && (
              <span className="ml-1 rounded-full bg-amber-500 px-1.5 text-[10px] text-white">{waiting}</span>
            )}
          </button>
        ))}
        <div className="ml-auto flex items-center gap-2">
          <FollowedTestRun />
          <RerunOfLink />
          <ReplayOfLink />
          <ReplayButton />
          <ExplainFailure />
          <RunResumed />
          <button
            type="button"
            className="icon-btn h-6 w-6"
            aria-label={open ? "Hide the run panel" : "Show the run panel"}
            onClick={() => setPanelOpen(!open)}
            data-testid="run-panel-toggle"
          >
            {open ? <ChevronDown className="h-4 w-4" /> : <ChevronUp className="h-4 w-4" />}
          </button>
        </div>
      </div>
      {open && (
        <div className="min-h-0 flex-1" role="tabpanel">
          {tab === "console" && <RunConsole />}
          {tab === "trace" && <TracePanel />}
          {tab === "history" && <RunHistory />}
        </div>
      )}
    </section>
  );
}

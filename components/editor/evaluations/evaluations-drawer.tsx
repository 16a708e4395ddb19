"use client";

import { FlaskConical, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/contract";
import { useEditorStore } from "../store";
import { inputColumns } from "./case-row-values";
import { CompareTab } from "./compare-tab";
import { DatasetsTab } from "./datasets-tab";
import { EvaluationRunsTab } from "./evaluation-runs-tab";
import { SuitesTab } from "./suites-tab";

type EvaluationTab = "datasets" | "suites" | "runs" | "compare";

const TABS: { id: EvaluationTab; label: string }[] = [
  { id: "datasets", label: "Datasets" },
  { id: "suites", label: "Suites" },
  { id: "runs", label: "Runs" },
  { id: "compare", label: "Compare" },
];

/** The toolbar's Evaluations button and its drawer: datasets, suites, evaluation runs and their comparison. */
export function EvaluationsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => setOpen(true)} data-testid="evaluations-open">
        <FlaskConical className="h-4 w-4" aria-hidden /> <span className="max-lg:sr-only">Evaluations</span>
      </button>
      <EvaluationsDrawer open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function EvaluationsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [tab, setTab] = useState<EvaluationTab>("datasets");
  const workflowId = useEditorStore((state) => state.workflowId);
  const savedVersion = useEditorStore((state) => state.save.version);
  const readOnly = useEditorStore((state) => state.readOnly);
  // The dataset's columns are the saved draft's start inputs: what the server checks cases against.
  const saved = useQuery({
    queryKey: ["workflow", workflowId, "saved", savedVersion],
    queryFn: () => api.workflows.get(workflowId),
    enabled: open,
  });
  const columns = useMemo(() => inputColumns(saved.data?.blocks), [saved.data]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const panels: Record<EvaluationTab, ReactNode> = {
    datasets: <DatasetsTab workflowId={workflowId} columns={columns} readOnly={readOnly} />,
    suites: <SuitesTab workflowId={workflowId} readOnly={readOnly} />,
    runs: <EvaluationRunsTab workflowId={workflowId} readOnly={readOnly} />,
    compare: <CompareTab workflowId={workflowId} />,
  };
  return (
    <dialog
      ref={ref}
      aria-label="Evaluations"
      data-testid="evaluations-drawer"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-0 ml-auto h-screen max-h-screen w-[min(56rem,100vw)] border-l border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/30 dark:backdrop:bg-black/50"
    >
      {open && (
        <div className="flex h-full flex-col">
          <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2">
            <h2 className="text-base font-semibold">Evaluations</h2>
            <nav className="ml-4 flex gap-1" role="tablist">
              {TABS.map((entry) => (
                <button
                  key={entry.id}
                  type="button"
                  role="tab"
                  aria-selected={tab === entry.id}
                  data-testid={`evaluations-tab-${entry.id}`}
                  className={`rounded px-2 py-1 text-sm ${tab === entry.id ? "bg-indigo-100 text-indigo-800" : "text-slate-600 hover:bg-slate-100"}`}
                  onClick={() => setTab(entry.id)}
                >
                  {entry.label}
                </button>
              ))}
            </nav>
            <button
              type="button"
              className="icon-btn ml-auto"
              onClick={onClose}
              aria-label="Close"
              data-testid="evaluations-close"
            >
              <X className="h-4 w-4" aria-hidden />
            </button>
          </header>
          <div className="min-h-0 flex-1 overflow-auto p-4" role="tabpanel">
            {panels[tab]}
          </div>
        </div>
      )}
    </dialog>
  );
}

"use client";

import { X } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ChatPanel } from "@/components/triggers/chat-panel";
import { SchedulesPanel } from "@/components/triggers/schedules-panel";
import { WebhooksPanel } from "@/components/triggers/webhooks-panel";
import { ApiTab } from "./api-tab";
import { DeploymentsTab } from "./deployments-tab";
import { McpTab } from "./mcp-tab";

export type DeployTab = "deployments" | "api" | "webhooks" | "schedules" | "chat" | "mcp";

const TABS: { id: DeployTab; label: string }[] = [
  { id: "deployments", label: "Deployments" },
  { id: "api", label: "API" },
  { id: "webhooks", label: "Webhooks" },
  { id: "schedules", label: "Schedules" },
  { id: "chat", label: "Chat" },
  { id: "mcp", label: "MCP" },
];

/** The deploy drawer: deployments and every way the deployed workflow is put to use, beside the canvas. */
export function DeployDrawer({
  open,
  onClose,
  workflowId,
  savedVersion,
  unsaved,
  readOnly,
}: {
  open: boolean;
  onClose: () => void;
  workflowId: string;
  savedVersion: number;
  unsaved: boolean;
  readOnly: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [tab, setTab] = useState<DeployTab>("deployments");
  // A link to one of this workflow's runs (a delivery's, a schedule fire's) shows it in the editor behind the drawer.
  const shownRun = useSearchParams().get("run");
  const [lastShownRun, setLastShownRun] = useState(shownRun);
  if (shownRun !== lastShownRun) {
    setLastShownRun(shownRun);
    if (open) onClose();
  }
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const panels: Record<DeployTab, ReactNode> = {
    deployments: (
      <DeploymentsTab workflowId={workflowId} savedVersion={savedVersion} unsaved={unsaved} readOnly={readOnly} />
    ),
    api: <ApiTab workflowId={workflowId} />,
    webhooks: <WebhooksPanel workflowId={workflowId} />,
    schedules: <SchedulesPanel workflowId={workflowId} />,
    chat: <ChatPanel workflowId={workflowId} />,
    mcp: <McpTab workflowId={workflowId} />,
  };
  return (
    <dialog
      ref={ref}
      aria-label="Deploy"
      data-testid="deploy-drawer"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-0 ml-auto h-screen max-h-screen w-[min(40rem,100vw)] border-l border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/30 dark:backdrop:bg-black/50"
    >
      {open && (
        <div className="flex h-full flex-col">
          <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2">
            <h2 className="text-base font-semibold">Deploy</h2>
            <nav className="ml-4 flex gap-1" role="tablist">
              {TABS.map((entry) => (
                <button
                  key={entry.id}
                  type="button"
                  role="tab"
                  aria-selected={tab === entry.id}
                  data-testid={`deploy-tab-${entry.id}`}
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
              data-testid="deploy-close"
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

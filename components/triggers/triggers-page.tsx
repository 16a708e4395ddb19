"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { api } from "@/contract";
import { UserMenu } from "@/components/auth/user-menu";
import { WorkspaceSwitcher } from "@/components/auth/workspace-switcher";
import { WebhooksPanel } from "./webhooks-panel";

/** /workflows/:id/triggers: what starts the workflow from outside the editor (webhooks for now). */
export function TriggersPage({ workflowId }: { workflowId: string }) {
  const workflow = useQuery({ queryKey: ["workflow", workflowId], queryFn: () => api.workflows.get(workflowId), staleTime: Infinity, retry: false });
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-6 py-10">
      <header className="flex items-center gap-3">
        <Link href={`/workflows/${encodeURIComponent(workflowId)}`} className="icon-btn" aria-label="Back to the editor">
          <ArrowLeft size={16} aria-hidden />
        </Link>
        <h1 className="flex-1 truncate text-2xl font-semibold">
          Triggers{workflow.data ? <span className="text-slate-500"> · {workflow.data.name}</span> : null}
        </h1>
        <WorkspaceSwitcher />
        <UserMenu />
      </header>
      {workflow.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Could not load the workflow: {workflow.error.message}
        </p>
      ) : (
        <WebhooksPanel workflowId={workflowId} />
      )}
    </main>
  );
}

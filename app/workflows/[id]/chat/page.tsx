import type { Metadata } from "next";
import Link from "next/link";
import { ArrowLeft } from "lucide-react";
import { WorkspaceGate } from "@/components/auth/workspace-context";
import { ChatPanel } from "@/components/triggers/chat-panel";
import { requireWorkspace } from "@/lib/auth";

export const metadata: Metadata = { title: "Public chat · Trellis" };
export const dynamic = "force-dynamic";

/** The workflow's public chat settings, on a page of their own until the editor's deploy area holds the panel. */
export default async function WorkflowChatPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}/chat`);
  return (
    <WorkspaceGate {...access}>
      <main className="mx-auto max-w-2xl space-y-4 p-6">
        <Link href={`/workflows/${encodeURIComponent(id)}`} className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
          <ArrowLeft size={14} aria-hidden /> Back to the workflow
        </Link>
        <ChatPanel workflowId={id} />
      </main>
    </WorkspaceGate>
  );
}

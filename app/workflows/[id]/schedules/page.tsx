import { ArrowLeft, CalendarClock } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { WorkspaceGate } from "@/components/auth/workspace-context";
import { SchedulesPanel } from "@/components/triggers/schedules-panel";
import { requireWorkspace } from "@/lib/auth";

export const metadata: Metadata = { title: "Schedules · Trellis" };
export const dynamic = "force-dynamic";

/** A workflow's schedules on a page of their own, until the editor's deploy area holds the panel. */
export default async function WorkflowSchedulesPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}/schedules`);
  return (
    <WorkspaceGate {...access}>
      <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
        <header className="flex items-center gap-3">
          <Link href={`/workflows/${encodeURIComponent(id)}`} className="icon-btn" aria-label="Back to the workflow">
            <ArrowLeft size={16} aria-hidden />
          </Link>
          <CalendarClock className="text-indigo-600" aria-hidden />
          <h1 className="flex-1 text-2xl font-semibold">Workflow schedules</h1>
        </header>
        <SchedulesPanel workflowId={id} />
      </main>
    </WorkspaceGate>
  );
}

"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ImportedWorkflow } from "@/contract";
import { ImportButton } from "./import-button";
import { ImportReportPanel } from "./import-report-panel";
import { newWorkflowDocument } from "@/components/workflows/new-workflow";
import { downloadWorkflow, useWorkflowList, useWorkflowMutations } from "./use-workflows";
import { WorkflowRow } from "./workflow-row";
import { HomeTemplates } from "./home-templates";
import { useCanEdit } from "@/components/auth/workspace-context";
import { PageHeader } from "@/components/ui/page-header";

interface Notice {
  message: string;
  details: Array<{ path: string; message: string }>;
}

/** The home page: every workflow, and what can be done with each (a viewer opens and exports them). */
export function WorkflowHome() {
  const router = useRouter();
  const canEdit = useCanEdit();
  const list = useWorkflowList();
  const { create, rename, duplicate, remove, importFile } = useWorkflowMutations();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [imported, setImported] = useState<{ result: ImportedWorkflow; fileName: string } | null>(null);

  const report = (message: string, error?: unknown) =>
    setNotice({ message: error instanceof Error ? `${message}: ${error.message}` : message, details: [] });

  async function createWorkflow() {
    const count = list.data?.length ?? 0;
    try {
      const workflow = await create.mutateAsync(newWorkflowDocument(`Untitled workflow ${count + 1}`));
      router.push(`/workflows/${workflow.id}`);
    } catch (error) {
      report("Could not create a workflow", error);
    }
  }

  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      {/* What can be done here sits above the list. */}
      <PageHeader
        className="mb-6"
        actions={
          canEdit && (
            <>
              <ImportButton
                busy={importFile.isPending}
                onImport={async (file, fileName) => {
                  setNotice(null);
                  setImported(null);
                  setImported({ result: await importFile.mutateAsync({ file }), fileName });
                }}
                onError={(message, details) => setNotice({ message, details })}
              />
              <button
                type="button"
                className="btn-primary"
                onClick={() => void createWorkflow()}
                disabled={create.isPending}
              >
                <Plus size={16} aria-hidden /> New workflow
              </button>
            </>
          )
        }
      />

      {notice && (
        <div
          role="alert"
          data-testid="home-notice"
          className="mb-6 rounded border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          <p>{notice.message}</p>
          {notice.details.length > 0 && (
            <ul className="mt-2 list-disc pl-5">
              {notice.details.slice(0, 10).map((detail) => (
                <li key={`${detail.path}:${detail.message}`}>
                  <code>{detail.path || "(document)"}</code>: {detail.message}
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="mt-2 underline" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}

      {imported && (
        <ImportReportPanel imported={imported.result} fileName={imported.fileName} onClose={() => setImported(null)} />
      )}

      {list.isPending && <p className="text-slate-500">Loading workflows…</p>}
      {list.isError && (
        <p role="alert" className="text-red-700">
          Could not load workflows: {list.error.message}
        </p>
      )}
      {list.data && list.data.length === 0 && (
        <p className="rounded border border-dashed border-slate-300 px-6 py-10 text-center text-slate-500">
          {canEdit ? "No workflows yet. Create one, or import a workflow file." : "No workflows in this workspace yet."}
        </p>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="rounded border border-slate-200 bg-white" aria-label="Workflows">
          {list.data.map((workflow) => (
            <WorkflowRow
              key={workflow.id}
              workflow={workflow}
              canEdit={canEdit}
              onRename={(name) =>
                rename.mutateAsync({ id: workflow.id, name }).catch((error) => report("Could not rename", error))
              }
              onDuplicate={() =>
                duplicate.mutate(workflow.id, { onError: (error) => report("Could not duplicate", error) })
              }
              onDelete={() => {
                if (window.confirm(`Delete "${workflow.name}"? Its runs are deleted too.`))
                  remove.mutate(workflow.id, { onError: (error) => report("Could not delete", error) });
              }}
              onExport={() => void downloadWorkflow(workflow.id).catch((error) => report("Could not export", error))}
            />
          ))}
        </ul>
      )}
      <HomeTemplates />
    </main>
  );
}

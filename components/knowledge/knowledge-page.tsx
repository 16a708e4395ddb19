"use client";

import { Info, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { OFFLINE_EMBEDDER_ID, OFFLINE_EMBEDDER_NOTICE, countOf } from "@/contract";
import { useCanEdit } from "@/components/auth/workspace-context";
import { CreateBaseForm } from "./create-base-form";
import { DocumentList } from "./document-list";
import { SearchPanel } from "./search-panel";
import { UploadDropzone } from "./upload-dropzone";
import { useDocuments, useKnowledgeBases, useKnowledgeMutations } from "./use-knowledge";

/** The Knowledge page: bases on the left; the chosen base's uploads, documents and search (viewers search only). */
export function KnowledgePage() {
  const canEdit = useCanEdit();
  const bases = useKnowledgeBases();
  const { createBase, deleteBase, deleteDocument } = useKnowledgeMutations();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selected = bases.data?.find((base) => base.id === selectedId) ?? bases.data?.[0] ?? null;
  const documents = useDocuments(selected?.id ?? null, selected?.documentCount ?? 0);
  const statuses = (documents.data ?? []).map((document) => document.status).join();
  const refetchBases = bases.refetch;
  // Document and chunk counts in the list change as processing finishes.
  useEffect(() => {
    if (statuses) void refetchBases();
  }, [statuses, refetchBases]);

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-6 py-10">
      <div className="flex gap-6">
        <aside className="w-72 shrink-0 space-y-4">
          {canEdit && (
            <CreateBaseForm
              pending={createBase.isPending}
              onCreate={async (input) => {
                setError(null);
                try {
                  const created = await createBase.mutateAsync(input);
                  setSelectedId(created.id);
                } catch (caught) {
                  setError(caught instanceof Error ? caught.message : String(caught));
                }
              }}
            />
          )}
          {error && (
            <p className="text-sm text-red-700" role="alert">
              {error}
            </p>
          )}
          <ul className="space-y-1" aria-label="Knowledge bases">
            {(bases.data ?? []).map((base) => (
              <li key={base.id}>
                <button
                  type="button"
                  className={`w-full rounded px-3 py-2 text-left text-sm ${base.id === selected?.id ? "bg-indigo-100 text-indigo-900" : "hover:bg-slate-100"}`}
                  onClick={() => setSelectedId(base.id)}
                >
                  <span className="block font-medium">{base.name}</span>
                  <span className="text-xs text-slate-500">
                    {countOf(base.documentCount, "document")} · {countOf(base.chunkCount, "chunk")}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </aside>

        <section className="min-w-0 flex-1 space-y-6">
          {!selected ? (
            <p className="text-sm text-slate-500">
              {bases.isLoading
                ? "Loading…"
                : canEdit
                  ? "Create a knowledge base to upload documents and search them."
                  : "No knowledge bases in this workspace yet."}
            </p>
          ) : (
            <>
              <header className="flex items-start gap-3">
                <div className="flex-1">
                  <h2 className="text-xl font-semibold">{selected.name}</h2>
                  <p className="text-xs text-slate-500">
                    <code>{selected.embeddingModel}</code> · chunks of {selected.chunkSize} tokens,{" "}
                    {selected.chunkOverlap} overlap · id <code>{selected.id}</code>
                  </p>
                </div>
                {canEdit && (
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => {
                      if (window.confirm(`Delete "${selected.name}" with all its documents?`))
                        void deleteBase.mutateAsync(selected.id).then(() => setSelectedId(null));
                    }}
                  >
                    <Trash2 size={14} aria-hidden /> Delete
                  </button>
                )}
              </header>
              {selected.embeddingModel === OFFLINE_EMBEDDER_ID && (
                <p
                  className="flex gap-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                  data-testid="offline-embedder-notice"
                >
                  <Info size={16} className="mt-0.5 shrink-0" aria-hidden />
                  {OFFLINE_EMBEDDER_NOTICE}
                </p>
              )}
              {canEdit && (
                <UploadDropzone
                  knowledgeBaseId={selected.id}
                  onUploaded={() => void documents.refetch().then(() => bases.refetch())}
                />
              )}
              {documents.isError && (
                <p className="flex items-center gap-2 text-sm text-red-700" role="alert" data-testid="documents-error">
                  Could not load the documents: {documents.error.message}
                  <button type="button" className="btn-secondary" onClick={() => void documents.refetch()}>
                    Retry
                  </button>
                </p>
              )}
              <DocumentList
                knowledgeBaseId={selected.id}
                documents={documents.data ?? []}
                morePages={documents}
                onDelete={
                  canEdit
                    ? (documentId) =>
                        void deleteDocument.mutateAsync({ id: selected.id, documentId }).then(() => documents.refetch())
                    : undefined
                }
              />
              <SearchPanel knowledgeBaseId={selected.id} />
            </>
          )}
        </section>
      </div>
    </main>
  );
}

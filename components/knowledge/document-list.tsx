"use client";

import { ChevronDown, ChevronRight, Trash2 } from "lucide-react";
import { useState } from "react";
import { countOf, type DocumentStatus, type KnowledgeDocument } from "@/contract";
import { LoadMoreButton, type MorePages } from "@/components/ui/load-more-button";
import { useChunks } from "./use-knowledge";
import { formatCost, formatTokens } from "@/components/ui/format";

const STATUS_STYLE: Record<DocumentStatus, string> = {
  pending: "bg-slate-100 text-slate-700",
  processing: "bg-amber-100 text-amber-800",
  ready: "bg-emerald-100 text-emerald-800",
  failed: "bg-red-100 text-red-800",
};

function costText(document: KnowledgeDocument): string {
  const { tokens, cost, unpriced, estimated } = document.embedding;
  return `${formatTokens(tokens, estimated)}, ${formatCost({ cost: cost === null ? null : { total: cost }, unpriced, estimated })}`;
}

function Chunks({ knowledgeBaseId, documentId }: { knowledgeBaseId: string; documentId: string }) {
  const chunks = useChunks(knowledgeBaseId, documentId);
  if (chunks.isLoading) return <p className="px-3 py-2 text-xs text-slate-500">Loading chunks…</p>;
  return (
    <ol className="space-y-2 px-3 py-2" aria-label="Chunks">
      {(chunks.data ?? []).map((chunk) => (
        <li key={chunk.chunkIndex} className="rounded border border-slate-200 bg-slate-50 p-2 text-xs">
          <p className="mb-1 text-slate-500">
            #{chunk.chunkIndex} · {countOf(chunk.tokenCount, "token")}
            {chunk.metadata.headings?.length ? ` · ${chunk.metadata.headings.join(" › ")}` : ""}
            {chunk.metadata.pages?.length ? ` · page ${chunk.metadata.pages.join(", ")}` : ""}
          </p>
          <p className="whitespace-pre-wrap">{chunk.content}</p>
        </li>
      ))}
      <li>
        <LoadMoreButton pages={chunks} label="More chunks" />
      </li>
    </ol>
  );
}

interface Props {
  knowledgeBaseId: string;
  documents: KnowledgeDocument[];
  /** The base's documents are paged: the button for the next page, shown while there is one. */
  morePages?: MorePages;
  /** Absent for a viewer: no Delete buttons. */
  onDelete?(documentId: string): void;
}

/** Each document with its status (polled while processing), reason when failed, and chunks. */
export function DocumentList({ knowledgeBaseId, documents, morePages, onDelete }: Props) {
  const [open, setOpen] = useState<string | null>(null);
  if (documents.length === 0) return <p className="text-sm text-slate-500">No documents yet.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded border border-slate-200 bg-white" aria-label="Documents">
      {documents.map((document) => (
        <li key={document.id} data-testid="document-row">
          <div className="flex items-center gap-2 px-3 py-2 text-sm">
            <button
              type="button"
              className="icon-btn"
              aria-label={`Show chunks of ${document.name}`}
              disabled={document.status !== "ready"}
              onClick={() => setOpen(open === document.id ? null : document.id)}
            >
              {open === document.id ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
            </button>
            <span className="flex-1 truncate font-medium">{document.name}</span>
            <span
              className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[document.status]}`}
              data-testid="document-status"
            >
              {document.status}
            </span>
            <span className="w-24 text-right text-xs text-slate-500">
              {document.status === "ready" ? countOf(document.chunkCount, "chunk") : ""}
            </span>
            <span className="hidden w-48 text-right text-xs text-slate-500 md:inline">
              {document.status === "ready" ? costText(document) : ""}
            </span>
            {onDelete && (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Delete ${document.name}`}
                onClick={() => onDelete(document.id)}
              >
                <Trash2 size={14} />
              </button>
            )}
          </div>
          {document.status === "failed" && document.error && (
            <p className="px-3 pb-2 text-xs text-red-700" role="alert">
              {document.error}
            </p>
          )}
          {open === document.id && <Chunks knowledgeBaseId={knowledgeBaseId} documentId={document.id} />}
        </li>
      ))}
      {morePages?.hasNextPage && (
        <li className="px-3 py-2">
          <LoadMoreButton pages={morePages} label="More documents" testId="documents-load-more" />
        </li>
      )}
    </ul>
  );
}

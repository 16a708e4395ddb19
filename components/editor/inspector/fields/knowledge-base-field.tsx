"use client";

import { useKnowledgeBases } from "@/components/knowledge/use-knowledge";
import { countOf, type KnowledgeBaseSummary } from "@/contract";
import { asArray, smallButtonClass, type FieldEditorProps } from "./field-props";

/** The ids chosen after ticking or clearing one; undefined when none is left, so the schema says so. */
export function toggleKnowledgeBase(chosen: string[], id: string, on: boolean): string[] | undefined {
  const next = on ? (chosen.includes(id) ? chosen : [...chosen, id]) : chosen.filter((each) => each !== id);
  return next.length > 0 ? next : undefined;
}

function baseSummary(base: KnowledgeBaseSummary): string {
  return `${countOf(base.documentCount, "document")} · ${countOf(base.chunkCount, "chunk")} · ${base.embeddingModel}`;
}

/**
 * `knowledgeBases`: the bases from GET /api/knowledge-bases, ticked by name. A chosen id that no
 * longer exists (deleted, or a workflow imported from elsewhere) stays listed as missing until it
 * is removed, so a run's failure is never a surprise.
 */
export function KnowledgeBaseField(props: FieldEditorProps) {
  const bases = useKnowledgeBases();
  const chosen = asArray<string>(props.value).filter((id): id is string => typeof id === "string");
  const known = new Set((bases.data ?? []).map((base) => base.id));
  const missing = bases.data ? chosen.filter((id) => !known.has(id)) : [];
  const change = (id: string, on: boolean) => props.onChange(toggleKnowledgeBase(chosen, id, on));

  return (
    <div role="group" aria-label={props.field.label} data-testid={`field-${props.field.key}`} className="space-y-1">
      {bases.isPending && <p className="text-xs text-slate-500">Loading knowledge bases…</p>}
      {bases.isError && (
        <p role="alert" className="text-xs text-red-600" data-testid="knowledge-bases-error">
          Could not list knowledge bases: {bases.error.message}{" "}
          <button type="button" className={smallButtonClass} onClick={() => void bases.refetch()}>
            Retry
          </button>
        </p>
      )}
      {bases.data?.length === 0 && (
        <p className="text-xs text-slate-500">
          No knowledge bases yet.{" "}
          <a href="/knowledge" target="_blank" rel="noreferrer" className="text-indigo-600 underline">
            Create one
          </a>
        </p>
      )}
      {bases.data?.map((base) => (
        <label
          key={base.id}
          className="flex items-start gap-2 rounded border border-slate-200 px-2 py-1 text-sm"
          data-testid={`knowledge-base-option-${base.id}`}
        >
          <input
            type="checkbox"
            className="mt-1"
            checked={chosen.includes(base.id)}
            onChange={(event) => change(base.id, event.target.checked)}
          />
          <span className="min-w-0">
            <span className="block truncate">{base.name}</span>
            <span className="block text-[11px] text-slate-500">{baseSummary(base)}</span>
          </span>
        </label>
      ))}
      {missing.map((id) => (
        <div
          key={id}
          className="flex items-center justify-between gap-2 rounded border border-red-200 bg-red-50 px-2 py-1 text-xs text-red-700"
          data-testid={`knowledge-base-missing-${id}`}
        >
          <span className="truncate">
            Not found: <code>{id}</code>
          </span>
          <button type="button" className={smallButtonClass} onClick={() => change(id, false)}>
            Remove
          </button>
        </div>
      ))}
    </div>
  );
}

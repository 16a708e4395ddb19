"use client";

import { countOf, isEmptyDocumentDiff, type DocumentDiff } from "@/contract";

/** A diff as a person reads it: blocks by name, each changed one with the fields that differ. */
export function DiffView({ diff, testId = "deployment-diff" }: { diff: DocumentDiff; testId?: string }) {
  if (isEmptyDocumentDiff(diff)) {
    return (
      <p className="text-xs text-slate-500" data-testid={testId} data-empty="true">
        No changes: both do the same thing.
      </p>
    );
  }
  return (
    <ul className="space-y-0.5 text-xs" data-testid={testId}>
      {diff.blocksAdded.map((block) => (
        <li key={`added-${block.id}`} className="text-emerald-700" data-change="added">
          + {block.name} <span className="text-slate-400">({block.type})</span>
        </li>
      ))}
      {diff.blocksRemoved.map((block) => (
        <li key={`removed-${block.id}`} className="text-red-700" data-change="removed">
          − {block.name} <span className="text-slate-400">({block.type})</span>
        </li>
      ))}
      {diff.blocksChanged.map((block) => (
        <li key={`changed-${block.id}`} className="text-amber-800" data-change="changed">
          ~ {block.name}: <span className="font-mono">{block.fields.join(", ")}</span>
        </li>
      ))}
      {(diff.edgesAdded > 0 || diff.edgesRemoved > 0) && (
        <li className="text-slate-600">
          {[
            diff.edgesAdded > 0 && `${countOf(diff.edgesAdded, "connection")} added`,
            diff.edgesRemoved > 0 && `${countOf(diff.edgesRemoved, "connection")} removed`,
          ]
            .filter(Boolean)
            .join(", ")}
        </li>
      )}
      {diff.otherChanges.length > 0 && <li className="text-slate-600">workflow: {diff.otherChanges.join(", ")}</li>}
    </ul>
  );
}

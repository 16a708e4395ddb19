"use client";

import { CircleAlert, CircleCheck, X } from "lucide-react";
import Link from "next/link";
import { IMPORT_FORMAT_LABELS, type ImportedWorkflow, countOf } from "@/contract";

interface ImportReportPanelProps {
  imported: ImportedWorkflow;
  fileName: string;
  onClose(): void;
}

/** What an import made of a file: what mapped, and plainly what did not, with the way into the new workflow. */
export function ImportReportPanel({ imported, fileName, onClose }: ImportReportPanelProps) {
  const { workflow, report } = imported;
  const formatName = IMPORT_FORMAT_LABELS[report.format].split(" (")[0];
  return (
    <section
      aria-label="Import report"
      data-testid="import-report"
      className="mb-6 rounded border border-slate-200 bg-white px-4 py-3 text-sm"
    >
      <header className="flex items-start gap-3">
        <div className="flex-1">
          <h2 className="text-base font-semibold">
            Imported {fileName} as “{workflow.name}”
          </h2>
          {report.renamed && (
            <p className="text-amber-800" data-testid="import-renamed">
              Renamed: this workspace already has a workflow called “{report.renamed.from}”.
            </p>
          )}
          <p className="text-slate-600">
            Read as: {formatName}. {countOf(report.mapped.length, "part")} mapped, {report.notMapped.length} not mapped
            {workflow.issues.length > 0 ? `, ${workflow.issues.length} left to finish in the editor` : ""}.
          </p>
        </div>
        <Link href={`/workflows/${workflow.id}`} className="btn-primary">
          Open workflow
        </Link>
        <button type="button" className="btn-secondary" aria-label="Close the import report" onClick={onClose}>
          <X size={16} aria-hidden />
        </button>
      </header>
      {report.notMapped.length > 0 && (
        <div className="mt-3">
          <h3 className="flex items-center gap-1 font-medium text-amber-800">
            <CircleAlert size={16} aria-hidden /> Not mapped
          </h3>
          <ul className="mt-1 list-disc pl-5" aria-label="Not mapped">
            {report.notMapped.map((item, index) => (
              <li key={`${item.what}:${index}`}>
                <code>{item.what}</code>: {item.why}
              </li>
            ))}
          </ul>
        </div>
      )}
      <details className="mt-3" open={report.notMapped.length === 0}>
        <summary className="flex cursor-pointer items-center gap-1 font-medium text-emerald-800">
          <CircleCheck size={16} aria-hidden /> Mapped ({report.mapped.length})
        </summary>
        <ul className="mt-1 list-disc pl-5" aria-label="Mapped">
          {report.mapped.map((line, index) => (
            <li key={`${line}:${index}`}>{line}</li>
          ))}
        </ul>
      </details>
      {workflow.issues.length > 0 && (
        <ul className="mt-3 list-disc pl-5 text-slate-600" aria-label="Left to finish">
          {workflow.issues.slice(0, 10).map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

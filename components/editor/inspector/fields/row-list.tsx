"use client";

import type { ReactNode } from "react";
import { X } from "lucide-react";
import { smallButtonClass } from "./field-props";

/** A list of editable rows with remove buttons and an add button; used by the list-kind fields. */
export function RowList<T>({
  rows,
  renderRow,
  onChange,
  newRow,
  addLabel,
  testId,
}: {
  rows: T[];
  renderRow: (row: T, update: (patch: Partial<T>) => void, index: number) => ReactNode;
  onChange: (rows: T[]) => void;
  newRow: (rows: T[]) => T;
  addLabel: string;
  testId: string;
}) {
  return (
    <div className="space-y-1.5" data-testid={testId}>
      {rows.map((row, index) => (
        <div
          key={index}
          className="flex items-start gap-1 rounded border border-slate-200 p-1.5"
          data-testid={`${testId}-row`}
        >
          <div className="min-w-0 flex-1 space-y-1">
            {renderRow(
              row,
              (patch) => onChange(rows.map((item, at) => (at === index ? { ...item, ...patch } : item))),
              index,
            )}
          </div>
          <button
            type="button"
            aria-label="Remove"
            className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-red-600"
            onClick={() => onChange(rows.filter((_, at) => at !== index))}
          >
            <X className="h-3.5 w-3.5" aria-hidden />
          </button>
        </div>
      ))}
      <button
        type="button"
        className={smallButtonClass}
        onClick={() => onChange([...rows, newRow(rows)])}
        data-testid={`${testId}-add`}
      >
        {addLabel}
      </button>
    </div>
  );
}

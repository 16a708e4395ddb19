"use client";

import { useState } from "react";
import type { InputColumn } from "./case-row-values";

const CASE_FIELDS = ["expected", "note", "tags"];

/**
 * When a file's columns are not all start inputs (or `expected`, `note`, `tags`): say what each
 * column is, or leave it out, before the file is imported.
 */
export function ImportMapping({
  columns,
  inputs,
  onImport,
  onCancel,
}: {
  columns: string[];
  inputs: InputColumn[];
  onImport: (mapping: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const targets = [...inputs.map((input) => input.name), ...CASE_FIELDS];
  const [mapping, setMapping] = useState<Record<string, string>>(() =>
    Object.fromEntries(columns.map((column) => [column, targets.includes(column) ? column : ""])),
  );
  const missing = inputs.filter((input) => input.required && !Object.values(mapping).includes(input.name));
  return (
    <div className="space-y-2 rounded border border-amber-300 bg-amber-50 p-2 text-xs" data-testid="import-mapping">
      <p>The file&apos;s columns are not all start inputs: say what each one is.</p>
      {columns.map((column) => (
        <label key={column} className="flex items-center gap-2">
          <span className="w-32 truncate font-mono">{column}</span>→
          <select
            className="input text-xs"
            aria-label={`Column ${column}`}
            value={mapping[column] ?? ""}
            onChange={(event) => setMapping({ ...mapping, [column]: event.target.value })}
          >
            <option value="">(leave out)</option>
            {targets.map((target) => (
              <option key={target} value={target}>
                {target}
              </option>
            ))}
          </select>
        </label>
      ))}
      {missing.length > 0 && (
        <p className="text-red-700">No column gives {missing.map((input) => input.name).join(", ")}.</p>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          className="btn-primary text-xs"
          disabled={missing.length > 0}
          onClick={() => onImport(mapping)}
        >
          Import
        </button>
        <button type="button" className="btn-secondary text-xs" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

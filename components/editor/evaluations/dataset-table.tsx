"use client";

import { Plus, Save, Trash2, Upload } from "lucide-react";
import { useState } from "react";
import type { DatasetCase, DatasetCaseInput, DatasetView } from "@/contract";
import { caseFromRow, rowText, type InputColumn, type RowText } from "./case-row-values";
import { fileColumns, readCaseFile, type CaseFile } from "./import-columns";
import { ImportMapping } from "./import-mapping";
import { useDatasetActions } from "./use-evaluations";

/**
 * A dataset's cases as a table: a typed column per start input, then the expected output, a note
 * and tags. Rows are edited in place and saved one by one (each save is a new version of the
 * dataset); the last row adds a case; a CSV or JSON-lines file adds many.
 */
export function DatasetTable({
  workflowId,
  dataset,
  columns,
  readOnly,
}: {
  workflowId: string;
  dataset: DatasetView;
  columns: InputColumn[];
  readOnly: boolean;
}) {
  const actions = useDatasetActions(workflowId);
  const [pending, setPending] = useState<{ file: CaseFile; columns: string[] } | null>(null);
  const error = [actions.addCase, actions.replaceCase, actions.removeCase, actions.importFile].find(
    (action) => action.isError,
  )?.error;
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-2 text-xs text-slate-600">
        <span data-testid="dataset-version">
          Version {dataset.version} · {dataset.caseCount} {dataset.caseCount === 1 ? "case" : "cases"}
        </span>
        {!readOnly && (
          <label className="btn-secondary ml-auto cursor-pointer text-xs">
            <Upload className="h-3.5 w-3.5" aria-hidden /> Import CSV or JSON lines
            <input
              type="file"
              accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
              className="sr-only"
              data-testid="dataset-import"
              onChange={(event) => {
                const picked = event.target.files?.[0];
                event.target.value = "";
                if (!picked) return;
                void readCaseFile(picked).then((file) => {
                  const known = new Set([...columns.map((column) => column.name), "expected", "note", "tags"]);
                  const fileHas = fileColumns(file);
                  // Columns that are all start inputs go straight in; any other asks what it is first.
                  if (fileHas.every((column) => known.has(column)))
                    actions.importFile.mutate({ id: dataset.id, file, mapping: {} });
                  else setPending({ file, columns: fileHas });
                });
              }}
            />
          </label>
        )}
      </div>
      {pending && (
        <ImportMapping
          columns={pending.columns}
          inputs={columns}
          onCancel={() => setPending(null)}
          onImport={(mapping) => {
            actions.importFile.mutate({ id: dataset.id, file: pending.file, mapping });
            setPending(null);
          }}
        />
      )}
      {error && (
        <p className="text-xs text-red-700" role="alert" data-testid="dataset-error">
          {error.message}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-xs" data-testid="dataset-table">
          <thead>
            <tr className="text-left text-slate-500">
              {columns.map((column) => (
                <th key={column.name} className="px-1 py-1 font-medium">
                  {column.name} <span className="font-normal text-slate-400">{column.type}</span>
                </th>
              ))}
              <th className="px-1 py-1 font-medium">expected</th>
              <th className="px-1 py-1 font-medium">note</th>
              <th className="px-1 py-1 font-medium">tags</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {dataset.cases.map((item) => (
              <CaseRow
                key={`${item.id}-${dataset.version}`}
                item={item}
                columns={columns}
                readOnly={readOnly}
                onSave={(row) => actions.replaceCase.mutateAsync({ id: dataset.id, caseId: item.id, item: row })}
                onDelete={() => actions.removeCase.mutate({ id: dataset.id, caseId: item.id })}
              />
            ))}
            {!readOnly && (
              <CaseRow
                key={`new-${dataset.version}`}
                item={null}
                columns={columns}
                readOnly={false}
                onSave={(row) => actions.addCase.mutateAsync({ id: dataset.id, item: row })}
              />
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function CaseRow({
  item,
  columns,
  readOnly,
  onSave,
  onDelete,
}: {
  item: DatasetCase | null;
  columns: InputColumn[];
  readOnly: boolean;
  onSave: (item: DatasetCaseInput) => Promise<unknown>;
  onDelete?: () => void;
}) {
  const [row, setRow] = useState<RowText>(() => rowText(item, columns));
  const [problem, setProblem] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const edit = (patch: Partial<RowText>) => {
    setRow((current) => ({ ...current, ...patch }));
    setDirty(true);
  };
  const save = () => {
    const parsed = caseFromRow(row, columns);
    if ("problem" in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    void onSave(parsed.item).then(() => {
      setDirty(false);
      if (!item) setRow(rowText(null, columns));
    });
  };
  const cell = "input w-full min-w-20 px-1 py-0.5 text-xs";
  return (
    <tr className="border-t border-slate-100 align-top" data-testid={item ? "dataset-row" : "dataset-new-row"}>
      {columns.map((column) => (
        <td key={column.name} className="px-1 py-1">
          {column.type === "boolean" ? (
            <input
              type="checkbox"
              aria-label={column.name}
              disabled={readOnly}
              checked={row.inputs[column.name] === "true"}
              onChange={(event) => edit({ inputs: { ...row.inputs, [column.name]: String(event.target.checked) } })}
            />
          ) : (
            <input
              className={cell}
              aria-label={column.name}
              readOnly={readOnly}
              inputMode={column.type === "number" ? "decimal" : undefined}
              placeholder={
                column.type === "object" || column.type === "array" ? "JSON" : column.required ? "required" : ""
              }
              value={row.inputs[column.name] ?? ""}
              onChange={(event) => edit({ inputs: { ...row.inputs, [column.name]: event.target.value } })}
            />
          )}
        </td>
      ))}
      <td className="px-1 py-1">
        <input
          className={cell}
          aria-label="expected"
          readOnly={readOnly}
          value={row.expected}
          onChange={(event) => edit({ expected: event.target.value })}
        />
      </td>
      <td className="px-1 py-1">
        <input
          className={cell}
          aria-label="note"
          readOnly={readOnly}
          value={row.note}
          onChange={(event) => edit({ note: event.target.value })}
        />
      </td>
      <td className="px-1 py-1">
        <input
          className={cell}
          aria-label="tags"
          readOnly={readOnly}
          value={row.tags}
          onChange={(event) => edit({ tags: event.target.value })}
        />
      </td>
      <td className="whitespace-nowrap px-1 py-1">
        {!readOnly && (item === null || dirty) && (
          <button
            type="button"
            className="icon-btn"
            aria-label={item ? "Save case" : "Add case"}
            data-testid={item ? "case-save" : "case-add"}
            onClick={save}
          >
            {item ? <Save className="h-3.5 w-3.5" aria-hidden /> : <Plus className="h-3.5 w-3.5" aria-hidden />}
          </button>
        )}
        {!readOnly && onDelete && (
          <button
            type="button"
            className="icon-btn"
            aria-label="Delete case"
            data-testid="case-delete"
            onClick={onDelete}
          >
            <Trash2 className="h-3.5 w-3.5" aria-hidden />
          </button>
        )}
        {problem && (
          <span className="block text-red-700" role="alert">
            {problem}
          </span>
        )}
      </td>
    </tr>
  );
}

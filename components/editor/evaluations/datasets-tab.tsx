"use client";

import { useState } from "react";
import type { InputColumn } from "./case-row-values";
import { DatasetTable } from "./dataset-table";
import { useDataset, useDatasetActions, useDatasets } from "./use-evaluations";

/** The workflow's datasets: pick one to edit its cases, or make a new one. */
export function DatasetsTab({
  workflowId,
  columns,
  readOnly,
}: {
  workflowId: string;
  columns: InputColumn[];
  readOnly: boolean;
}) {
  const datasets = useDatasets(workflowId);
  const actions = useDatasetActions(workflowId);
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState("");
  const selected = chosen ?? datasets.data?.[0]?.id ?? null;
  const dataset = useDataset(selected);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <label className="text-xs font-medium text-slate-700">
          Dataset{" "}
          <select
            className="input ml-1 text-xs"
            data-testid="dataset-select"
            value={selected ?? ""}
            onChange={(event) => setChosen(event.target.value || null)}
          >
            {datasets.data?.length === 0 && <option value="">None yet</option>}
            {datasets.data?.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name} ({item.caseCount})
              </option>
            ))}
          </select>
        </label>
        {!readOnly && (
          <form
            className="ml-auto flex items-center gap-1"
            onSubmit={(event) => {
              event.preventDefault();
              if (!name.trim()) return;
              actions.create.mutate(name.trim(), {
                onSuccess: (created) => {
                  setName("");
                  setChosen(created.id);
                },
              });
            }}
          >
            <input
              className="input text-xs"
              placeholder="New dataset name"
              aria-label="New dataset name"
              data-testid="dataset-name"
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <button
              type="submit"
              className="btn-secondary text-xs"
              data-testid="dataset-create"
              disabled={actions.create.isPending}
            >
              Create
            </button>
          </form>
        )}
      </div>
      {actions.create.isError && <p className="text-xs text-red-700">{actions.create.error.message}</p>}
      {columns.length === 0 && (
        <p className="text-xs text-slate-600">
          The start block declares no inputs: cases will have an expected output only.
        </p>
      )}
      {dataset.data && (
        <DatasetTable workflowId={workflowId} dataset={dataset.data} columns={columns} readOnly={readOnly} />
      )}
      {datasets.data?.length === 0 && (
        <p className="text-xs text-slate-600">
          Make a dataset, then type cases, import a CSV (a column per start input, and <code>expected</code>,{" "}
          <code>note</code>, <code>tags</code>), or use <strong>Add to dataset</strong> on a past run.
        </p>
      )}
    </div>
  );
}

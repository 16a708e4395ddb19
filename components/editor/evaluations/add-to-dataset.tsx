"use client";

import { ListPlus } from "lucide-react";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/contract";
import { useEditorStore } from "../store";
import { datasetsKey, useDatasets } from "./use-evaluations";

const asText = (value: unknown) =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);

/**
 * "Add to dataset" on a past run's page: the run's inputs become a case of one of the workflow's
 * datasets (or a new one), with its output as the expected output, editable before it is added.
 */
export function AddToDataset({ runId }: { runId: string }) {
  const workflowId = useEditorStore((state) => state.workflowId);
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <button type="button" className="btn-secondary" data-testid="add-to-dataset" onClick={() => setOpen(!open)}>
        <ListPlus className="h-4 w-4" aria-hidden /> Add to dataset
      </button>
      {open && <AddToDatasetForm workflowId={workflowId} runId={runId} onDone={() => setOpen(false)} />}
    </div>
  );
}

function AddToDatasetForm({ workflowId, runId, onDone }: { workflowId: string; runId: string; onDone: () => void }) {
  const client = useQueryClient();
  const datasets = useDatasets(workflowId);
  const run = useQuery({ queryKey: ["run", runId, "for-dataset"], queryFn: () => api.runs.get(runId) });
  const [datasetId, setDatasetId] = useState("");
  const [newName, setNewName] = useState("");
  const [expected, setExpected] = useState<string | null>(null);
  const chosen = datasetId || datasets.data?.[0]?.id || "";
  const shownExpected = expected ?? asText(run.data?.output);
  const add = useMutation({
    mutationFn: async () => {
      const target = chosen || (await api.call("createDataset", { body: { name: newName.trim(), workflowId } })).id;
      const original = asText(run.data?.output);
      return api.call("addRunToDataset", {
        params: { id: runId },
        body: { datasetId: target, ...(shownExpected === original ? {} : { expected: shownExpected }) },
      });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: datasetsKey(workflowId) });
      onDone();
    },
  });
  return (
    <form
      className="absolute right-0 z-20 mt-1 w-80 space-y-2 rounded border border-slate-200 bg-white p-3 text-xs shadow-lg"
      data-testid="add-to-dataset-form"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      {datasets.data && datasets.data.length > 0 ? (
        <label className="block">
          Dataset
          <select
            className="input mt-1 block w-full text-xs"
            data-testid="add-to-dataset-select"
            value={chosen}
            onChange={(event) => setDatasetId(event.target.value)}
          >
            {datasets.data.map((dataset) => (
              <option key={dataset.id} value={dataset.id}>
                {dataset.name} ({dataset.caseCount})
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label className="block">
          New dataset
          <input
            className="input mt-1 block w-full text-xs"
            placeholder="Name"
            data-testid="add-to-dataset-name"
            value={newName}
            onChange={(event) => setNewName(event.target.value)}
          />
        </label>
      )}
      <label className="block">
        Expected output (the run&apos;s output; edit it if it was wrong)
        <textarea
          className="input mt-1 block h-20 w-full text-xs"
          data-testid="add-to-dataset-expected"
          value={shownExpected}
          onChange={(event) => setExpected(event.target.value)}
        />
      </label>
      <button
        type="submit"
        className="btn-primary text-xs"
        data-testid="add-to-dataset-submit"
        disabled={add.isPending || !run.data || (!chosen && !newName.trim())}
      >
        Add
      </button>
      {add.isError && (
        <p className="text-red-700" role="alert">
          {add.error.message}
        </p>
      )}
    </form>
  );
}

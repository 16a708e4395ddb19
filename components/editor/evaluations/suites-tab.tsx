"use client";

import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import type { SuiteGate, SuiteView } from "@/contract";
import { useEditorStore, useEditorStoreApi } from "../store";
import { ScorerFields, scorerOf, type ScorerDraft } from "./scorer-fields";
import { useCreateSuite, useDatasets, useDeleteSuite, useSuites } from "./use-evaluations";

const percent = (value: number) => `${Math.round(value * 100)}%`;

function gateText(gate: SuiteGate | null): string {
  if (!gate) return "no deploy thresholds";
  const parts = [
    gate.minPassRate !== undefined ? `pass rate ≥ ${percent(gate.minPassRate)}` : null,
    gate.maxRegressions !== undefined ? `≤ ${gate.maxRegressions} regressions` : null,
    gate.maxCostPerCase !== undefined ? `≤ $${gate.maxCostPerCase} a case` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no deploy thresholds";
}

/** Suites of the workflow, which one (if any) a deploy requires, and the form for a new one. */
export function SuitesTab({ workflowId, readOnly }: { workflowId: string; readOnly: boolean }) {
  const suites = useSuites(workflowId);
  const remove = useDeleteSuite(workflowId);
  const store = useEditorStoreApi();
  const required = useEditorStore((state) => state.meta.settings?.requireEvaluation);
  const requireSuite = (suiteId: string | null) => {
    const { requireEvaluation: _old, ...rest } = store.getState().meta.settings ?? {};
    store
      .getState()
      .updateMeta({ settings: suiteId ? { ...rest, requireEvaluation: suiteId } : rest }, "requireEvaluation");
  };
  return (
    <div className="space-y-4">
      <ul className="divide-y divide-slate-100" data-testid="suite-list">
        {suites.data?.length === 0 && <li className="text-xs text-slate-500">No suite yet.</li>}
        {suites.data?.map((suite: SuiteView) => (
          <li key={suite.id} className="flex items-center gap-2 py-2 text-xs">
            <div>
              <div className="font-medium text-slate-800">{suite.name}</div>
              <div className="text-slate-500">
                {suite.scorers.map((scorer) => scorer.name ?? scorer.type).join(", ")} · pass at{" "}
                {percent(suite.passThreshold)} · {gateText(suite.gate)}
              </div>
            </div>
            <label className="ml-auto flex items-center gap-1 text-slate-700">
              <input
                type="checkbox"
                disabled={readOnly}
                data-testid="suite-require"
                checked={required === suite.id}
                onChange={(event) => requireSuite(event.target.checked ? suite.id : null)}
              />
              Required to deploy
            </label>
            {!readOnly && (
              <button
                type="button"
                className="icon-btn"
                aria-label={`Delete suite ${suite.name}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(suite.id)}
              >
                <Trash2 className="h-3.5 w-3.5" aria-hidden />
              </button>
            )}
          </li>
        ))}
      </ul>
      {remove.isError && (
        <p className="text-xs text-red-700" role="alert">
          {remove.error.message}
        </p>
      )}
      {!readOnly && <SuiteForm workflowId={workflowId} />}
    </div>
  );
}

const optionalNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

function SuiteForm({ workflowId }: { workflowId: string }) {
  const datasets = useDatasets(workflowId);
  const create = useCreateSuite(workflowId);
  const [name, setName] = useState("");
  const [datasetId, setDatasetId] = useState("");
  const [scorers, setScorers] = useState<ScorerDraft[]>([{ type: "contains", weight: "1", first: "", second: "" }]);
  const [threshold, setThreshold] = useState("1");
  const [gate, setGate] = useState({ minPassRate: "", maxRegressions: "", maxCostPerCase: "" });
  const chosenDataset = datasetId || datasets.data?.[0]?.id || "";
  const submit = () => {
    const thresholds = {
      minPassRate: optionalNumber(gate.minPassRate),
      maxRegressions: optionalNumber(gate.maxRegressions),
      maxCostPerCase: optionalNumber(gate.maxCostPerCase),
    };
    const hasGate = Object.values(thresholds).some((value) => value !== undefined);
    create.mutate(
      {
        name,
        datasetId: chosenDataset,
        scorers: scorers.map(scorerOf),
        passThreshold: Number(threshold),
        gate: hasGate ? (JSON.parse(JSON.stringify(thresholds)) as SuiteGate) : null,
      },
      { onSuccess: () => setName("") },
    );
  };
  return (
    <form
      className="space-y-2 rounded border border-slate-200 p-3"
      data-testid="suite-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3 className="text-sm font-semibold">New suite</h3>
      <div className="flex flex-wrap gap-2">
        <input
          className="input text-xs"
          placeholder="Suite name"
          aria-label="Suite name"
          data-testid="suite-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <select
          className="input text-xs"
          aria-label="Dataset"
          data-testid="suite-dataset"
          value={chosenDataset}
          onChange={(event) => setDatasetId(event.target.value)}
        >
          {datasets.data?.map((dataset) => (
            <option key={dataset.id} value={dataset.id}>
              {dataset.name}
            </option>
          ))}
        </select>
        <label className="text-xs">
          Case passes at{" "}
          <input
            className="input w-14 text-xs"
            inputMode="decimal"
            aria-label="Pass threshold"
            value={threshold}
            onChange={(event) => setThreshold(event.target.value)}
          />
        </label>
      </div>
      {scorers.map((draft, index) => (
        <ScorerFields
          key={index}
          draft={draft}
          index={index}
          onChange={(changed) => setScorers(scorers.map((item, position) => (position === index ? changed : item)))}
          onRemove={() => setScorers(scorers.filter((_, position) => position !== index))}
        />
      ))}
      <button
        type="button"
        className="btn-secondary text-xs"
        onClick={() => setScorers([...scorers, { type: "exact", weight: "1", first: "", second: "" }])}
      >
        <Plus className="h-3.5 w-3.5" aria-hidden /> Scorer
      </button>
      <fieldset className="flex flex-wrap gap-2 text-xs">
        <legend className="mb-1 font-medium">Deploy gate (when the workflow requires this suite)</legend>
        <input
          className="input w-28 text-xs"
          placeholder="min pass rate 0–1"
          aria-label="Minimum pass rate"
          data-testid="gate-pass-rate"
          value={gate.minPassRate}
          onChange={(event) => setGate({ ...gate, minPassRate: event.target.value })}
        />
        <input
          className="input w-28 text-xs"
          placeholder="max regressions"
          aria-label="Maximum regressions"
          data-testid="gate-regressions"
          value={gate.maxRegressions}
          onChange={(event) => setGate({ ...gate, maxRegressions: event.target.value })}
        />
        <input
          className="input w-28 text-xs"
          placeholder="max $ per case"
          aria-label="Maximum cost per case"
          value={gate.maxCostPerCase}
          onChange={(event) => setGate({ ...gate, maxCostPerCase: event.target.value })}
        />
      </fieldset>
      <button
        type="submit"
        className="btn-primary text-xs"
        data-testid="suite-create"
        disabled={create.isPending || !chosenDataset}
      >
        Create suite
      </button>
      {create.isError && (
        <p className="text-xs text-red-700" role="alert" data-testid="suite-error">
          {create.error.message}
        </p>
      )}
    </form>
  );
}

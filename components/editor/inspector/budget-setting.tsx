"use client";

import { useState } from "react";
import { budgetAmountSchema } from "@/contract";
import { useEditorStore, useEditorStoreApi } from "../store";
import { inputClass } from "./fields/field-props";

/**
 * The workflow's budget per run (`settings.budget.maxCostPerRun`, US dollars): blank for none.
 * What is typed is kept while it is not a valid amount, with the reason beside it; only a valid
 * amount (or blank) reaches the document.
 */
export function BudgetSetting() {
  const store = useEditorStoreApi();
  const settings = useEditorStore((state) => state.meta.settings);
  const readOnly = useEditorStore((state) => state.readOnly);
  const stored = settings?.budget?.maxCostPerRun;
  const [draft, setDraft] = useState(stored === undefined ? "" : String(stored));
  const [lastStored, setLastStored] = useState(stored);
  // Follows the document when it changes elsewhere (undo, a reload).
  if (stored !== lastStored) {
    setLastStored(stored);
    setDraft(stored === undefined ? "" : String(stored));
  }
  const problem = draft.trim() === "" ? null : amountProblem(draft);
  const change = (text: string) => {
    setDraft(text);
    const { budget: _old, ...rest } = store.getState().meta.settings ?? {};
    if (text.trim() === "") {
      store.getState().updateMeta({ settings: rest }, "budget");
      return;
    }
    if (amountProblem(text) !== null) return;
    store.getState().updateMeta({ settings: { ...rest, budget: { maxCostPerRun: Number(text) } } }, "budget");
  };
  return (
    <label className="block text-xs font-medium text-slate-700">
      Budget per run (US dollars)
      <input
        className={`${inputClass} mt-1`}
        inputMode="decimal"
        placeholder="No budget"
        value={draft}
        readOnly={readOnly}
        aria-invalid={problem !== null}
        data-testid="budget-per-run"
        onChange={(event) => change(event.target.value)}
      />
      {problem ? (
        <span className="mt-1 block font-normal text-red-700" role="alert">
          {problem}
        </span>
      ) : (
        <span className="mt-1 block font-normal text-slate-500">
          Before each model call the worst case is checked against what is left; a call that could go over is not made
          and the run stops.
        </span>
      )}
    </label>
  );
}

function amountProblem(text: string): string | null {
  const value = Number(text);
  const parsed = budgetAmountSchema.safeParse(text.trim() === "" || Number.isNaN(value) ? text : value);
  return parsed.success ? null : `The budget ${parsed.error.issues[0]?.message ?? "is not valid"}`;
}

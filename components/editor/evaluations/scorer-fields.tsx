"use client";

import { X } from "lucide-react";
import type { ScorerInput, ScorerType } from "@/contract";

/** A scorer as the form edits it: its type, weight, and its one or two settings as text. */
export interface ScorerDraft {
  type: ScorerType;
  weight: string;
  first: string;
  second: string;
}

/** Per type: what its settings are called (none, one or two) and how the text becomes the scorer. */
const SETTINGS: Record<
  ScorerType,
  { labels: string[]; build: (first: string, second: string) => Record<string, unknown> }
> = {
  exact: { labels: [], build: () => ({}) },
  contains: { labels: ["Text (the expected output when empty)"], build: (first) => (first ? { value: first } : {}) },
  regex: { labels: ["Pattern", "Flags"], build: (first, second) => ({ pattern: first, flags: second }) },
  jsonSchema: { labels: ["JSON Schema"], build: (first) => ({ schema: parseJson(first) }) },
  numeric: { labels: ["Tolerance"], build: (first) => (first ? { tolerance: Number(first) } : {}) },
  similarity: { labels: ["Embedding model (offline when empty)"], build: (first) => (first ? { model: first } : {}) },
  judge: { labels: ["Model", "Rubric"], build: (first, second) => ({ model: first, rubric: second }) },
  workflow: { labels: ["Scoring workflow id"], build: (first) => ({ workflowId: first }) },
  maxCost: { labels: ["Max cost per case ($)"], build: (first) => ({ maxCost: Number(first) }) },
  maxDurationMs: { labels: ["Max duration (ms)"], build: (first) => ({ maxDurationMs: Number(first) }) },
};

export const SCORER_TYPES = Object.keys(SETTINGS) as ScorerType[];

const TYPE_LABELS: Record<ScorerType, string> = {
  exact: "Exact match",
  contains: "Contains",
  regex: "Regular expression",
  jsonSchema: "JSON Schema",
  numeric: "Numeric closeness",
  similarity: "Similarity",
  judge: "LLM judge",
  workflow: "Workflow",
  maxCost: "Cost limit",
  maxDurationMs: "Duration limit",
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Sent as it is: the server names the field that is not a schema.
    return text;
  }
}

export function scorerOf(draft: ScorerDraft): ScorerInput {
  const weight = draft.weight.trim() === "" ? 1 : Number(draft.weight);
  return { type: draft.type, weight, ...SETTINGS[draft.type].build(draft.first, draft.second) } as ScorerInput;
}

export function ScorerFields({
  draft,
  index,
  onChange,
  onRemove,
}: {
  draft: ScorerDraft;
  index: number;
  onChange: (draft: ScorerDraft) => void;
  onRemove: () => void;
}) {
  const labels = SETTINGS[draft.type].labels;
  return (
    <div className="flex flex-wrap items-end gap-2 rounded border border-slate-200 p-2" data-testid="scorer-fields">
      <label className="text-xs">
        Scorer {index + 1}
        <select
          className="input mt-1 block text-xs"
          data-testid="scorer-type"
          value={draft.type}
          onChange={(event) => onChange({ ...draft, type: event.target.value as ScorerType, first: "", second: "" })}
        >
          {SCORER_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      {labels.map((label, position) => (
        <label key={label} className="min-w-32 flex-1 text-xs">
          {label}
          <input
            className="input mt-1 block w-full text-xs"
            value={position === 0 ? draft.first : draft.second}
            onChange={(event) =>
              onChange(
                position === 0 ? { ...draft, first: event.target.value } : { ...draft, second: event.target.value },
              )
            }
          />
        </label>
      ))}
      <label className="w-16 text-xs">
        Weight
        <input
          className="input mt-1 block w-full text-xs"
          inputMode="decimal"
          value={draft.weight}
          onChange={(event) => onChange({ ...draft, weight: event.target.value })}
        />
      </label>
      <button type="button" className="icon-btn" aria-label={`Remove scorer ${index + 1}`} onClick={onRemove}>
        <X className="h-3.5 w-3.5" aria-hidden />
      </button>
    </div>
  );
}

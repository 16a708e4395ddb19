"use client";

import { Save } from "lucide-react";
import { useId, useState } from "react";
import type { ModelSummary, PriceOverride, PutPriceOverrideRequest } from "@/contract";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";

interface PriceOverrideFormProps {
  /** The model list, to pick an id from (any `provider/model` or `provider/*` can be typed). */
  models: ModelSummary[];
  /** The override chosen from the table to edit: a new object on every choice. */
  chosen: PriceOverride | null;
  onSave(model: string, prices: PutPriceOverrideRequest): Promise<boolean>;
}

type Draft = Record<"model" | "input" | "output" | "cachedInput" | "reasoning" | "note", string>;

const EMPTY: Draft = { model: "", input: "", output: "", cachedInput: "", reasoning: "", note: "" };

function draftOf(override: PriceOverride): Draft {
  const text = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    model: override.model,
    input: text(override.prices.input),
    output: text(override.prices.output),
    cachedInput: text(override.prices.cachedInput),
    reasoning: text(override.prices.reasoning),
    note: override.note ?? "",
  };
}

/** A typed figure as sent: empty optional fields are left out; anything else goes as a number for the server to judge (it names a bad one). */
function figure(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/**
 * One override: the model (from the list, or typed: a local model, or provider/* for all of a
 * provider's) and its prices in US dollars per million tokens.
 */
export function PriceOverrideForm({ models, chosen, onSave }: PriceOverrideFormProps) {
  const listId = useId();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [pending, setPending] = useState(false);
  const [lastChosen, setLastChosen] = useState(chosen);
  if (chosen !== lastChosen) {
    setLastChosen(chosen);
    if (chosen) setDraft(draftOf(chosen));
  }
  const providers = [...new Set(models.map((model) => model.provider))];
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  async function submit() {
    const prices: PutPriceOverrideRequest = { input: Number(draft.input), output: Number(draft.output) };
    const cachedInput = figure(draft.cachedInput);
    if (cachedInput !== undefined) prices.cachedInput = cachedInput;
    const reasoning = figure(draft.reasoning);
    if (reasoning !== undefined) prices.reasoning = reasoning;
    if (draft.note.trim()) prices.note = draft.note.trim();
    setPending(true);
    const saved = await onSave(draft.model.trim(), prices);
    setPending(false);
    if (saved) setDraft(EMPTY);
  }

  const number = (key: "input" | "output" | "cachedInput" | "reasoning", label: string, placeholder?: string) => (
    <FormField label={label} className="w-28">
      <input
        type="number"
        step="any"
        min={0}
        inputMode="decimal"
        className={FIELD_INPUT_CLASS}
        placeholder={placeholder}
        value={draft[key]}
        onChange={set(key)}
        data-testid={`price-${key}`}
      />
    </FormField>
  );

  return (
    <form
      className="space-y-2 rounded border border-slate-200 bg-white p-3"
      aria-label="Set a model's price"
      // The server names a bad figure (the browser's own check would not say which rule).
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Model" className="min-w-64 flex-1">
          <input
            list={listId}
            className={`${FIELD_INPUT_CLASS} font-mono`}
            placeholder="e.g. openai/gpt-4o-mini, ollama/llama3.2 or ollama/*"
            autoComplete="off"
            spellCheck={false}
            value={draft.model}
            onChange={set("model")}
            data-testid="price-model"
          />
          <datalist id={listId}>
            {providers.map((provider) => (
              <option key={`${provider}/*`} value={`${provider}/*`}>{`Every ${provider} model`}</option>
            ))}
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </datalist>
        </FormField>
        {number("input", "Input $ / 1M")}
        {number("output", "Output $ / 1M")}
        {number("cachedInput", "Cached input", "= input")}
        {number("reasoning", "Reasoning", "= output")}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Note" className="min-w-64 flex-1">
          <input
            className={FIELD_INPUT_CLASS}
            placeholder="e.g. negotiated rate, or what the GPU box costs per token"
            maxLength={500}
            value={draft.note}
            onChange={set("note")}
          />
        </FormField>
        <button
          type="submit"
          className="btn-primary"
          disabled={pending || !draft.model.trim() || draft.input === "" || draft.output === ""}
        >
          <Save size={14} aria-hidden /> {pending ? "Saving…" : "Save price"}
        </button>
      </div>
    </form>
  );
}

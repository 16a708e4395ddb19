"use client";

import { useId, useMemo, useState } from "react";
import { useModelList } from "../editor-queries";
import { catalogText } from "@/components/prices/price-text";
import { asString, inputClass, type FieldEditorProps } from "./field-props";
import { MissingSettingMark, ModelOption, modelPriceText, OverrideMark } from "./model-marks";
import { matchModels, typedModelProblem } from "./model-matches";

/**
 * The model picker: the providers' catalog with prices per million tokens (the workspace's own
 * prices marked, models whose provider has no key marked), searchable with the exact name first;
 * any `provider/model` id of a known provider can also be typed (Ollama and OpenAI-compatible
 * servers hold their own lists). Text that is neither is refused with a message, never kept.
 */
export function ModelField(props: FieldEditorProps) {
  const list = useModelList();
  const models = list.data?.models;
  const listId = useId();
  const [open, setOpen] = useState(false);
  // What is being typed; null while the field shows the chosen model.
  const [draft, setDraft] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const current = asString(props.value);
  const selected = models?.find((model) => model.id === current);
  const matches = useMemo(() => matchModels(models ?? [], draft ?? ""), [models, draft]);
  const providers = useMemo(() => new Set((models ?? []).map((model) => model.provider)), [models]);
  const typed = draft?.trim() ?? "";
  const offerTyped = typed.includes("/") && !matches.some((model) => model.id === typed);

  const choose = (id: string) => {
    if (id !== current) props.onChange(id || undefined);
    setOpen(false);
    setDraft(null);
    setProblem(null);
  };
  /** Keeps typed text that names a model (or a valid `provider/model`); refuses anything else, saying why. */
  const commitTyped = (pickBest: boolean) => {
    if (!typed) return choose(current);
    const best = matches[Math.min(active, matches.length - 1)];
    if (pickBest && best) return choose(best.id);
    if (models?.some((model) => model.id === typed)) return choose(typed);
    const refused = models ? typedModelProblem(typed, providers) : null;
    if (!refused) return choose(typed);
    setProblem(pickBest ? refused : `Not kept: ${refused}`);
    if (!pickBest) {
      setDraft(null);
      setOpen(false);
    }
  };

  return (
    <div className="relative" data-testid={`field-${props.field.key}`}>
      <input
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={props.field.label}
        aria-invalid={props.invalid || Boolean(problem) || undefined}
        className={`${inputClass} font-mono text-xs`}
        value={draft ?? current}
        placeholder={open ? "Search models or type provider/model" : "Choose a model"}
        onFocus={(event) => {
          setOpen(true);
          event.target.select();
        }}
        onBlur={() => {
          if (draft !== null) commitTyped(false);
          setOpen(false);
        }}
        onChange={(event) => {
          setDraft(event.target.value);
          setActive(0);
          setOpen(true);
          setProblem(null);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            if (draft === null) setOpen((wasOpen) => !wasOpen);
            else commitTyped(true);
          } else if (event.key === "Escape") {
            setDraft(null);
            setProblem(null);
            setOpen(false);
          } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(true);
            const step = event.key === "ArrowDown" ? 1 : -1;
            setActive((index) => Math.max(0, Math.min(matches.length - 1, index + step)));
            if (draft === null) setDraft("");
          }
        }}
        data-testid="model-picker-input"
      />
      {problem ? (
        <p className="mt-0.5 text-[11px] text-red-700" role="alert" data-testid="model-picker-problem">
          {problem}
        </p>
      ) : (
        <p className="mt-0.5 text-[11px] text-slate-500" data-testid="model-picker-summary">
          {selected
            ? `${selected.label} · ${modelPriceText(selected)}`
            : current
              ? "Not in the catalog: unpriced unless an override prices it"
              : ""}
          {selected && <OverrideMark model={selected} />}
          {selected && <MissingSettingMark model={selected} />}
        </p>
      )}
      {open && (
        <ul
          id={listId}
          role="listbox"
          className="absolute left-0 right-0 top-8 z-20 max-h-72 overflow-y-auto rounded border border-slate-200 bg-white py-1 text-xs shadow-lg"
        >
          {list.isLoading && <li className="px-2 py-1 text-slate-500">Loading models…</li>}
          {list.isError && <li className="px-2 py-1 text-red-700">Could not load the model list; type a model id.</li>}
          {list.data && (
            <li className="px-2 pb-1 text-[10px] text-slate-400" data-testid="model-picker-catalog">
              {catalogText(list.data.catalog)} · your workspace&apos;s own prices are marked override
            </li>
          )}
          {offerTyped && (
            <li
              role="option"
              aria-selected={false}
              className="cursor-pointer px-2 py-1 hover:bg-slate-100"
              onMouseDown={(event) => (event.preventDefault(), commitTyped(false))}
            >
              Use <span className="font-mono">{typed}</span>
            </li>
          )}
          {list.data && matches.length === 0 && !offerTyped && (
            <li className="px-2 py-1 text-slate-500">No model matches; type provider/model to use another.</li>
          )}
          {matches.map((model, index) => (
            <ModelOption
              key={model.id}
              model={model}
              selected={model.id === current}
              active={draft !== null && index === active}
              onPick={choose}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

"use client";

import { useId, useMemo, useState } from "react";
import type { ModelSummary } from "@/contract";
import { useModelList } from "../editor-queries";
import { catalogText, formatPricePerMillion } from "@/components/prices/price-text";
import { asString, inputClass, type FieldEditorProps } from "./field-props";

function priceText(model: ModelSummary): string {
  if (model.offline && model.priceSource !== "workspace-override") return "free";
  if (model.unpriced || !model.prices) return "unpriced";
  return `${formatPricePerMillion(model.prices.input)} in · ${formatPricePerMillion(model.prices.output)} out per 1M tokens`;
}

/** "override" on a model this workspace prices itself (Settings › Prices). */
function OverrideMark({ model }: { model: ModelSummary }) {
  if (model.priceSource !== "workspace-override") return null;
  return (
    <span
      className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-medium text-violet-800"
      title="This workspace's own price (Settings › Prices)"
      data-testid="model-price-override"
    >
      override
    </span>
  );
}

/**
 * The model picker: the providers' catalog with prices per million tokens (the workspace's own
 * prices marked), the price catalog's version and date, searchable; any `provider/model` id can
 * also be typed (Ollama and OpenAI-compatible servers hold their own lists).
 */
export function ModelField(props: FieldEditorProps) {
  const list = useModelList();
  const models = list.data?.models;
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const current = asString(props.value);
  const selected = models?.find((model) => model.id === current);
  const matches = useMemo(() => {
    const wanted = query.trim().toLowerCase();
    const all = models ?? [];
    return (wanted ? all.filter((model) => `${model.id} ${model.label}`.toLowerCase().includes(wanted)) : all).slice(0, 100);
  }, [models, query]);

  const choose = (id: string) => {
    props.onChange(id || undefined);
    setOpen(false);
    setQuery("");
  };

  return (
    <div className="relative" data-testid={`field-${props.field.key}`}>
      <input
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={props.field.label}
        aria-invalid={props.invalid || undefined}
        className={`${inputClass} font-mono text-xs`}
        value={open ? query : current}
        placeholder={open ? "Search models or type provider/model" : "Choose a model"}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            choose(matches[0]?.id ?? query.trim());
          }
          if (event.key === "Escape") setOpen(false);
        }}
        data-testid="model-picker-input"
      />
      <p className="mt-0.5 text-[11px] text-slate-500" data-testid="model-picker-summary">
        {selected ? `${selected.label} · ${priceText(selected)}` : current ? "Not in the catalog: unpriced unless an override prices it" : ""}
        {selected && <OverrideMark model={selected} />}
      </p>
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
          {query.includes("/") && !matches.some((model) => model.id === query.trim()) && (
            <li
              role="option"
              aria-selected={false}
              className="cursor-pointer px-2 py-1 hover:bg-slate-100"
              onMouseDown={(event) => (event.preventDefault(), choose(query.trim()))}
            >
              Use <span className="font-mono">{query.trim()}</span>
            </li>
          )}
          {matches.map((model) => (
            <li
              key={model.id}
              role="option"
              aria-selected={model.id === current}
              data-testid="model-option"
              data-model-id={model.id}
              title={model.description}
              className={`cursor-pointer px-2 py-1 ${model.id === current ? "bg-indigo-50" : "hover:bg-slate-100"}`}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(model.id);
              }}
            >
              <div className="flex justify-between gap-2">
                <span className="truncate">{model.label}</span>
                <span className={`shrink-0 ${model.unpriced ? "text-amber-700" : "text-slate-500"}`}>
                  {priceText(model)}
                  <OverrideMark model={model} />
                </span>
              </div>
              <div className="font-mono text-[10px] text-slate-400">{model.id}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

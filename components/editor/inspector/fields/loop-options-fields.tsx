"use client";

import { modelOptionSpecs, type AgentProviderOptions, type ModelOptionSpec } from "@/contract";
import { useEditorStore } from "../../store";
import { useModels } from "../editor-queries";
import { inputClass, type FieldEditorProps } from "./field-props";

/** A box as wide as a few digits: the shared class without its full width. */
const shortInputClass = inputClass.replace("w-full", "");

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The object with `key` set, or left out when undefined; undefined when nothing is left. */
function withKey<T extends Record<string, unknown>>(current: T, key: string, value: unknown): T | undefined {
  const next: Record<string, unknown> = { ...current };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return Object.keys(next).length > 0 ? (next as T) : undefined;
}

function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** `pruneToolResults`: from what conversation size old tool results are replaced, and how many recent ones stay whole. */
export function PruneToolResultsField(props: FieldEditorProps) {
  const value = record(props.value);
  const set = (key: string, number: number | undefined) => props.onChange(withKey(value, key, number));
  return (
    <div className="flex flex-wrap items-center gap-1 text-xs text-slate-600" data-testid={`field-${props.field.key}`}>
      <span>past</span>
      <input
        aria-label="Prune after tokens"
        className={`${shortInputClass} w-20`}
        inputMode="numeric"
        placeholder="off"
        value={typeof value.afterTokens === "number" ? value.afterTokens : ""}
        onChange={(event) => set("afterTokens", wholeNumber(event.target.value))}
      />
      <span>tokens, keep the last</span>
      <input
        aria-label="Tool results kept whole"
        className={`${shortInputClass} w-12`}
        inputMode="numeric"
        placeholder="1"
        value={typeof value.keepLast === "number" ? value.keepLast : ""}
        onChange={(event) => set("keepLast", wholeNumber(event.target.value))}
      />
      <span>results whole</span>
    </div>
  );
}

function useAgentModel(blockId: string): string {
  const model = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data.config.model);
  return typeof model === "string" && model ? model : "offline/echo";
}

/** `providerOptions`: only the options the agent's model takes (from GET /api/models), a select or a number each. */
export function ProviderOptionsField(props: FieldEditorProps) {
  const modelId = useAgentModel(props.blockId);
  const models = useModels();
  // A model the list does not hold (a typed-in id) gets the same rules the server checks with.
  const specs: ModelOptionSpec[] =
    models.data?.find((model) => model.id === modelId)?.providerOptions ?? modelOptionSpecs(modelId);
  const value = record(props.value) as AgentProviderOptions & Record<string, unknown>;
  const set = (key: string, option: unknown) => props.onChange(withKey(value, key, option));
  const offered = new Set<string>(specs.map((spec) => spec.name));
  const stale = Object.keys(value).filter((key) => !offered.has(key));
  return (
    <div className="space-y-1" data-testid={`field-${props.field.key}`}>
      {specs.length === 0 && <p className="text-xs text-slate-500">{modelId} takes no provider options.</p>}
      {specs.map((spec) => (
        <label key={spec.name} className="flex items-center gap-2 text-xs text-slate-700">
          <span className="w-40 shrink-0">{spec.label}</span>
          {spec.kind === "select" ? (
            <select
              aria-label={spec.label}
              className={inputClass}
              value={typeof value[spec.name] === "string" ? (value[spec.name] as string) : ""}
              onChange={(event) => set(spec.name, event.target.value || undefined)}
            >
              <option value="">provider default</option>
              {spec.values.map((level) => (
                <option key={level}>{level}</option>
              ))}
            </select>
          ) : (
            <input
              aria-label={spec.label}
              className={inputClass}
              inputMode="numeric"
              placeholder={`${spec.min} to ${spec.max}; empty: off`}
              value={typeof value[spec.name] === "number" ? (value[spec.name] as number) : ""}
              onChange={(event) => set(spec.name, wholeNumber(event.target.value))}
            />
          )}
        </label>
      ))}
      {stale.map((key) => (
        <p key={key} className="flex items-center gap-2 text-xs text-red-600">
          {key} = {JSON.stringify(value[key])} is not an option of {modelId}.
          <button type="button" className="underline" onClick={() => set(key, undefined)}>
            Remove
          </button>
        </p>
      ))}
    </div>
  );
}

"use client";

import { X } from "lucide-react";
import { useState } from "react";
import { freshVariableName } from "@/blocks";
import { CodeEditor } from "@/components/code-editor";
import { useEditorStore, useEditorStoreApi } from "../store";
import { inputClass, smallButtonClass } from "./fields/field-props";
import {
  convertValue,
  nameProblem,
  parseTyped,
  renameVariable,
  typeOfValue,
  VARIABLE_TYPES,
  type VariableType,
} from "./variable-values";

/**
 * The workflow's initial variables (`<variable.name>`), each with a type. Edits go through the
 * editor store like any document change, so they autosave and undo; a run's own variables and
 * Set Variables blocks lay their values over these.
 */
export function VariablesPanel() {
  const store = useEditorStoreApi();
  const variables = useEditorStore((state) => state.meta.variables);
  const readOnly = useEditorStore((state) => state.readOnly);
  const names = Object.keys(variables);
  const change = (next: Record<string, unknown>, coalesceKey: string) =>
    store.getState().updateMeta({ variables: next }, coalesceKey);
  return (
    <section className="space-y-1.5" data-testid="variables-panel" aria-label="Variables">
      <h3 className="text-xs font-medium text-slate-700">Variables</h3>
      {names.length === 0 && (
        <p className="text-xs text-slate-500">None yet. Blocks read a variable as &lt;variable.name&gt;.</p>
      )}
      {names.map((name, index) => (
        <VariableRow
          key={index}
          name={name}
          value={variables[name]}
          others={names.filter((other) => other !== name)}
          readOnly={readOnly}
          onRename={(to) => change(renameVariable(variables, name, to), `variable-name:${index}`)}
          onValue={(value) => change({ ...variables, [name]: value }, `variable-value:${name}`)}
          onRemove={() =>
            change(Object.fromEntries(Object.entries(variables).filter(([other]) => other !== name)), "variable-remove")
          }
        />
      ))}
      {!readOnly && (
        <button
          type="button"
          className={smallButtonClass}
          data-testid="variables-add"
          onClick={() => change({ ...variables, [freshVariableName(Object.keys(variables))]: "" }, "variable-add")}
        >
          Add variable
        </button>
      )}
    </section>
  );
}

function VariableRow(props: {
  name: string;
  value: unknown;
  others: string[];
  readOnly: boolean;
  onRename: (name: string) => void;
  onValue: (value: unknown) => void;
  onRemove: () => void;
}) {
  const { name, value, readOnly } = props;
  const type = typeOfValue(value);
  const [draftName, setDraftName] = useState(name);
  const [seenName, setSeenName] = useState(name);
  if (seenName !== name) {
    // Renamed from outside (undo): show the stored name.
    setSeenName(name);
    setDraftName(name);
  }
  const problem = draftName === name ? null : nameProblem(draftName, props.others);
  return (
    <div className="space-y-1 rounded border border-slate-200 p-1.5" data-testid="variable-row">
      <div className="flex gap-1">
        <input
          aria-label="Variable name"
          className={`${inputClass} font-mono text-xs`}
          value={draftName}
          readOnly={readOnly}
          aria-invalid={problem !== null}
          onChange={(event) => {
            const next = event.target.value;
            setDraftName(next);
            if (next !== name && nameProblem(next, props.others) === null) props.onRename(next);
          }}
        />
        <select
          aria-label="Variable type"
          className={`${inputClass} w-28`}
          value={type}
          disabled={readOnly}
          onChange={(event) => props.onValue(convertValue(value, event.target.value as VariableType))}
        >
          {VARIABLE_TYPES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {!readOnly && (
          <button
            type="button"
            aria-label={`Remove variable ${name}`}
            className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-red-600"
            onClick={props.onRemove}
          >
            <X className="h-3.5 w-3.5" aria-hidden />
          </button>
        )}
      </div>
      {problem && <p className="text-xs text-red-600">{problem}</p>}
      <ValueEditor type={type} value={value} readOnly={readOnly} onValue={props.onValue} />
    </div>
  );
}

function ValueEditor({
  type,
  value,
  readOnly,
  onValue,
}: {
  type: VariableType;
  value: unknown;
  readOnly: boolean;
  onValue: (value: unknown) => void;
}) {
  if (type === "string")
    return (
      <input
        aria-label="Variable value"
        className={inputClass}
        value={value as string}
        readOnly={readOnly}
        onChange={(event) => onValue(event.target.value)}
      />
    );
  if (type === "boolean")
    return (
      <label className="flex items-center gap-1 text-xs text-slate-700">
        <input
          type="checkbox"
          aria-label="Variable value"
          checked={value as boolean}
          disabled={readOnly}
          onChange={(event) => onValue(event.target.checked)}
        />
        {value ? "true" : "false"}
      </label>
    );
  return <TypedTextEditor type={type} value={value} readOnly={readOnly} onValue={onValue} />;
}

/** Number and JSON values are typed as text and stored once they parse; until then the box says what is wrong. */
function TypedTextEditor({
  type,
  value,
  readOnly,
  onValue,
}: {
  type: "number" | "json";
  value: unknown;
  readOnly: boolean;
  onValue: (value: unknown) => void;
}) {
  const show = (current: unknown) => (type === "number" ? String(current) : JSON.stringify(current, null, 2));
  const [draft, setDraft] = useState(() => show(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    const parsed = parseTyped(draft, type);
    // Changed from outside (undo, a type change): show the stored value unless the draft already says the same.
    if (!parsed.ok || JSON.stringify(parsed.value) !== JSON.stringify(value)) setDraft(show(value));
  }
  const parsed = parseTyped(draft, type);
  const edit = (text: string) => {
    setDraft(text);
    const next = parseTyped(text, type);
    if (next.ok) onValue(next.value);
  };
  return (
    <>
      {type === "number" ? (
        <input
          aria-label="Variable value"
          inputMode="decimal"
          className={inputClass}
          value={draft}
          readOnly={readOnly}
          onChange={(event) => edit(event.target.value)}
        />
      ) : (
        // The editor names a JSON syntax problem itself, with its line.
        <CodeEditor
          language="json"
          label="Variable value"
          value={draft}
          readOnly={readOnly}
          onChange={edit}
          minLines={2}
        />
      )}
      {!parsed.ok && type === "number" && <p className="text-xs text-red-600">{parsed.problem}</p>}
    </>
  );
}

"use client";

import { CompletionInput } from "./completion-input";
import { asArray, asString, inputClass, type FieldEditorProps } from "./field-props";
import { RowList } from "./row-list";

type InputRow = { name: string; type?: string; description?: string };
type BranchRow = { id: string; label?: string; expression?: string };
type MetricRow = { name: string; description?: string; range: { min: number; max: number } };

const VALUE_TYPES = ["string", "number", "boolean", "object", "array"];

/** `inputs`: the run inputs a start block declares. */
export function InputsField(props: FieldEditorProps) {
  return (
    <RowList<InputRow>
      rows={asArray<InputRow>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => ({ name: rows.length === 0 ? "message" : `input${rows.length + 1}`, type: "string" })}
      addLabel="Add input"
      testId={`field-${props.field.key}`}
      renderRow={(row, update) => (
        <div className="flex gap-1">
          <input
            aria-label="Input name"
            className={inputClass}
            value={row.name}
            onChange={(event) => update({ name: event.target.value })}
          />
          <select
            aria-label="Input type"
            className={`${inputClass} w-24`}
            value={row.type ?? "string"}
            onChange={(event) => update({ type: event.target.value })}
          >
            {VALUE_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </div>
      )}
    />
  );
}

/** `branches`: if / else if / else; each branch is a handle on the node. */
export function BranchesField(props: FieldEditorProps) {
  return (
    <RowList<BranchRow>
      rows={asArray<BranchRow>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => {
        const taken = new Set(rows.map((row) => row.id));
        let index = rows.length + 1;
        while (taken.has(`b${index}`)) index += 1;
        return { id: `b${index}`, expression: "" };
      }}
      addLabel="Add branch"
      testId={`field-${props.field.key}`}
      renderRow={(row, update, index) => (
        <>
          <div className="flex gap-1">
            <input
              aria-label="Branch label"
              placeholder={index === 0 ? "if" : "else if / else"}
              className={inputClass}
              value={row.label ?? ""}
              onChange={(event) => update({ label: event.target.value || undefined })}
            />
            <input
              aria-label="Branch id"
              className={`${inputClass} w-20 font-mono text-xs`}
              value={row.id}
              onChange={(event) => update({ id: event.target.value })}
            />
          </div>
          <CompletionInput
            value={row.expression ?? ""}
            onChange={(expression) => update({ expression })}
            referenceItems={props.referenceItems}
            envNames={props.envNames}
            monospace
            placeholder="<Agent.content> == 'yes' (empty on the last branch: else)"
            label={`Branch ${index + 1} expression`}
          />
        </>
      )}
    />
  );
}

/** `metrics`: what an evaluator scores, each with a range. */
export function MetricsField(props: FieldEditorProps) {
  return (
    <RowList<MetricRow>
      rows={asArray<MetricRow>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => ({ name: `metric${rows.length + 1}`, description: "", range: { min: 1, max: 5 } })}
      addLabel="Add metric"
      testId={`field-${props.field.key}`}
      renderRow={(row, update) => (
        <>
          <input
            aria-label="Metric name"
            className={inputClass}
            value={row.name}
            onChange={(event) => update({ name: event.target.value })}
          />
          <input
            aria-label="Metric description"
            placeholder="What it measures"
            className={inputClass}
            value={row.description ?? ""}
            onChange={(event) => update({ description: event.target.value })}
          />
          <div className="flex items-center gap-1 text-xs text-slate-600">
            range
            <input
              aria-label="Minimum"
              type="number"
              className={`${inputClass} w-16`}
              value={row.range?.min ?? 0}
              onChange={(event) => update({ range: { min: Number(event.target.value), max: row.range?.max ?? 1 } })}
            />
            to
            <input
              aria-label="Maximum"
              type="number"
              className={`${inputClass} w-16`}
              value={row.range?.max ?? 1}
              onChange={(event) => update({ range: { min: row.range?.min ?? 0, max: Number(event.target.value) } })}
            />
          </div>
        </>
      )}
    />
  );
}

/** `keyValue`: string pairs such as headers; values may hold references and `{{SECRETS}}`. A new row's key starts from the field's placeholder. */
export function KeyValueField(props: FieldEditorProps) {
  const record =
    typeof props.value === "object" && props.value !== null && !Array.isArray(props.value)
      ? (props.value as Record<string, unknown>)
      : {};
  const rows = Object.entries(record).map(([key, value]) => ({ key, value: asString(value) }));
  const toRecord = (list: Array<{ key: string; value: string }>) =>
    list.length ? Object.fromEntries(list.map((row) => [row.key, row.value])) : undefined;
  return (
    <RowList<{ key: string; value: string }>
      rows={rows}
      onChange={(list) => props.onChange(toRecord(list))}
      newRow={(list) => ({ key: `${props.field.placeholder ?? "key"}-${list.length + 1}`, value: "" })}
      addLabel="Add entry"
      testId={`field-${props.field.key}`}
      renderRow={(row, update) => (
        <div className="flex gap-1">
          <input
            aria-label="Key"
            className={`${inputClass} w-1/3`}
            value={row.key}
            onChange={(event) => update({ key: event.target.value })}
          />
          <div className="flex-1">
            <CompletionInput
              value={row.value}
              onChange={(value) => update({ value })}
              referenceItems={props.referenceItems}
              envNames={props.envNames}
              label="Value"
            />
          </div>
        </div>
      )}
    />
  );
}

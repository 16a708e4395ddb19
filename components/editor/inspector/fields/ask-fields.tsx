"use client";

import { ASK_FIELD_TYPES, type AskChoice, type AskField } from "@/contract";
import { asArray, inputClass, type FieldEditorProps } from "./field-props";
import { RowList } from "./row-list";

/** The first `<prefix><n>` not taken, for a new row's id. */
function freshId(taken: ReadonlyArray<string>, prefix: string): string {
  const used = new Set(taken);
  let index = taken.length + 1;
  while (used.has(`${prefix}${index}`)) index += 1;
  return `${prefix}${index}`;
}

/** `choices`: an ask's answers to pick from; each is an output handle `choice:<id>` on the node. */
export function ChoicesField(props: FieldEditorProps) {
  return (
    <RowList<AskChoice>
      rows={asArray<AskChoice>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => {
        const id = freshId(
          rows.map((row) => row.id),
          "choice",
        );
        return { id, label: id };
      }}
      addLabel="Add choice"
      testId={`field-${props.field.key}`}
      renderRow={(row, update) => (
        <div className="flex gap-1">
          <input
            aria-label="Choice label"
            className={inputClass}
            value={row.label}
            onChange={(event) => update({ label: event.target.value })}
          />
          <input
            aria-label="Choice id"
            className={`${inputClass} w-24 font-mono text-xs`}
            value={row.id}
            onChange={(event) => update({ id: event.target.value })}
          />
        </div>
      )}
    />
  );
}

/** `askFields`: typed values the person answering an ask fills in. */
export function AskFieldsField(props: FieldEditorProps) {
  return (
    <RowList<AskField>
      rows={asArray<AskField>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => {
        const name = freshId(
          rows.map((row) => row.name),
          "field",
        );
        return { name, type: "string", label: name };
      }}
      addLabel="Add field"
      testId={`field-${props.field.key}`}
      renderRow={(row, update) => (
        <>
          <div className="flex gap-1">
            <input
              aria-label="Field name"
              className={`${inputClass} font-mono text-xs`}
              value={row.name}
              onChange={(event) => update({ name: event.target.value })}
            />
            <select
              aria-label="Field type"
              className={`${inputClass} w-24`}
              value={row.type}
              onChange={(event) => update({ type: event.target.value as AskField["type"] })}
            >
              {ASK_FIELD_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          </div>
          <input
            aria-label="Field label"
            className={inputClass}
            value={row.label}
            onChange={(event) => update({ label: event.target.value })}
          />
        </>
      )}
    />
  );
}

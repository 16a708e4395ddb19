"use client";

import { inputClass, smallButtonClass } from "../field-props";
import { RowOrderControls } from "../row-order-controls";
import { emptyRow, PROPERTY_TYPES, type ItemType, type PropertyRow } from "./schema-rows";

/** A box that shares its line with others (inputClass is full width). */
const boxClass = "rounded border border-slate-300 px-2 py-1 text-sm outline-none focus:border-indigo-500";

/** Whether a row holds properties of its own: an object, or an array of objects. */
function holdsProperties(row: PropertyRow): boolean {
  return row.type === "object" || (row.type === "array" && row.items === "object");
}

/**
 * Properties of an object schema as rows: name, type, description and required, with one level
 * of nested properties under an object or an array of objects.
 */
export function SchemaRowsEditor({
  rows,
  onChange,
  nested = false,
  testId,
}: {
  rows: PropertyRow[];
  onChange: (rows: PropertyRow[]) => void;
  nested?: boolean;
  testId: string;
}) {
  const update = (index: number, patch: Partial<PropertyRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <div className="space-y-1" data-testid={testId}>
      {rows.map((row, index) => (
        <div key={index} className="space-y-1 rounded border border-slate-200 p-1.5" data-testid={`${testId}-row`}>
          {/* Three short lines rather than one long one: the inspector is narrow. */}
          <div className="flex items-center gap-1">
            <input
              aria-label="Property name"
              placeholder="name"
              className={`${boxClass} min-w-0 flex-1 font-mono`}
              value={row.name}
              onChange={(event) => update(index, { name: event.target.value })}
            />
            <RowOrderControls rows={rows} index={index} onChange={onChange} removeLabel="Remove property" />
          </div>
          <div className="flex items-center gap-1">
            <select
              aria-label="Type"
              className={`${boxClass} min-w-0 flex-1`}
              value={row.type}
              onChange={(event) =>
                update(index, {
                  type: event.target.value as PropertyRow["type"],
                  items: event.target.value === "array" ? (row.items ?? "string") : undefined,
                })
              }
            >
              {PROPERTY_TYPES.filter((type) => !nested || type !== "object").map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
            {row.type === "array" && (
              <select
                aria-label="Item type"
                className={`${boxClass} min-w-0 flex-1`}
                value={row.items ?? "string"}
                onChange={(event) => update(index, { items: event.target.value as ItemType })}
              >
                {PROPERTY_TYPES.filter((type) => type !== "array" && (!nested || type !== "object")).map((type) => (
                  <option key={type} value={type}>
                    of {type}
                  </option>
                ))}
              </select>
            )}
            <label className="flex shrink-0 items-center gap-1 text-xs text-slate-700">
              <input
                type="checkbox"
                checked={row.required}
                onChange={(event) => update(index, { required: event.target.checked })}
              />
              required
            </label>
          </div>
          <input
            aria-label="Description"
            placeholder="Description"
            className={inputClass}
            value={row.description}
            onChange={(event) => update(index, { description: event.target.value })}
          />
          {/* One level only: a nested row offers no object types, so deeper schemas are edited as JSON. */}
          {!nested && holdsProperties(row) && (
            <div className="ml-3 border-l border-slate-200 pl-2">
              <SchemaRowsEditor
                rows={row.children ?? []}
                onChange={(children) => update(index, { children })}
                nested
                testId={`${testId}-${index}`}
              />
            </div>
          )}
        </div>
      ))}
      <button
        type="button"
        className={smallButtonClass}
        onClick={() => onChange([...rows, emptyRow(rows)])}
        data-testid={`${testId}-add`}
      >
        Add property
      </button>
    </div>
  );
}

"use client";

import { freshVariableName } from "@/blocks";
import { CompletionInput } from "./completion-input";
import { asArray, asString, inputClass, type FieldEditorProps } from "./field-props";
import { RowList } from "./row-list";

type AssignmentRow = { name: string; value?: unknown; expression?: string };

/** `assignments`: a Set Variables block's `name = value` rows; a row holds a value (text with references) or an expression. */
export function AssignmentsField(props: FieldEditorProps) {
  return (
    <RowList<AssignmentRow>
      rows={asArray<AssignmentRow>(props.value)}
      onChange={props.onChange}
      newRow={(rows) => ({ name: freshVariableName(rows.map((row) => row.name)), value: "" })}
      addLabel="Add assignment"
      testId={`field-${props.field.key}`}
      renderRow={(row, update, index) => {
        const isExpression = row.expression !== undefined;
        return (
          <>
            <div className="flex gap-1">
              <input
                aria-label={`Assignment ${index + 1} name`}
                className={`${inputClass} font-mono text-xs`}
                value={row.name}
                onChange={(event) => update({ name: event.target.value })}
              />
              <select
                aria-label={`Assignment ${index + 1} kind`}
                className={`${inputClass} w-28`}
                value={isExpression ? "expression" : "value"}
                onChange={(event) =>
                  update(
                    event.target.value === "expression"
                      ? { expression: asString(row.value), value: undefined }
                      : { value: row.expression ?? "", expression: undefined },
                  )
                }
              >
                <option value="value">value</option>
                <option value="expression">expression</option>
              </select>
            </div>
            <CompletionInput
              value={isExpression ? (row.expression ?? "") : asString(row.value)}
              onChange={(text) => update(isExpression ? { expression: text } : { value: text })}
              referenceItems={props.referenceItems}
              envNames={props.envNames}
              monospace={isExpression}
              placeholder={isExpression ? "<variable.count> + 1" : "text, or <Block.field> for its value as it is"}
              label={`Assignment ${index + 1} ${isExpression ? "expression" : "value"}`}
            />
          </>
        );
      }}
    />
  );
}

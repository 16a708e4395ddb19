"use client";

import { useState } from "react";
import { CodeEditor } from "@/components/code-editor";
import type { CompletionItem } from "../../../graph/reference-completion";
import { referenceCompletionSource } from "../../../graph/reference-completion-source";
import { smallButtonClass } from "../field-props";
import { valueOfText } from "../text-fields";
import { objectSchemaProblem, unwrappedSchema } from "./schema-check";
import { exampleFromSchema } from "./schema-example";
import { rowIssues, rowsFromSchema, schemaFromRows, type PropertyRow } from "./schema-rows";
import { SchemaRowsEditor } from "./schema-rows-editor";

function text(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/**
 * A JSON Schema of an object, edited as property rows or, for what rows cannot hold, as JSON
 * (checked against the JSON Schema meta-schema), with an example of a matching value. Rows with
 * a bad or repeated name are kept here and not written until fixed, so none is silently dropped.
 */
export function SchemaEditor({
  value,
  onChange,
  testId,
  label,
  emptyIsNone,
  showExample,
  referenceItems,
  envNames,
}: {
  value: unknown;
  onChange: (value: unknown) => void;
  testId: string;
  label: string;
  /** No rows means no schema at all (the response format), rather than an empty object schema. */
  emptyIsNone?: boolean;
  showExample?: boolean;
  referenceItems: () => CompletionItem[];
  envNames: () => string[];
}) {
  const [mode, setMode] = useState<"rows" | "json">(() => (rowsFromSchema(value) === null ? "json" : "rows"));
  const [rows, setRows] = useState<PropertyRow[]>(() => rowsFromSchema(value) ?? []);
  const [json, setJson] = useState(() => text(value));
  const [seen, setSeen] = useState(value);
  // A value this editor did not write (undo, redo) replaces what it shows.
  if (value !== seen) {
    setSeen(value);
    const fromRows =
      rowIssues(rows).length === 0 ? (rows.length === 0 && emptyIsNone ? undefined : schemaFromRows(rows)) : null;
    if (mode === "rows" && JSON.stringify(fromRows) !== JSON.stringify(value)) {
      const read = rowsFromSchema(value);
      if (read) setRows(read);
      else setMode("json");
    }
    if (JSON.stringify(valueOfText(json)) !== JSON.stringify(value)) setJson(text(value));
  }

  const issues = mode === "rows" ? rowIssues(rows) : [];
  const parsed = mode === "json" ? valueOfText(json) : value;
  // Text that does not parse is named by the editor (line, column and what is wrong); the schema check speaks for JSON.
  const notJson = mode === "json" && typeof parsed === "string";
  const problem = mode === "json" && parsed !== undefined && !notJson ? objectSchemaProblem(parsed) : null;
  const rowsFromJson = mode === "json" ? rowsFromSchema(parsed) : rows;

  const changeRows = (next: PropertyRow[]) => {
    setRows(next);
    if (rowIssues(next).length > 0) return;
    const schema = next.length === 0 && emptyIsNone ? undefined : schemaFromRows(next);
    setJson(text(schema));
    setSeen(schema);
    onChange(schema);
  };
  const changeJson = (next: string) => {
    setJson(next);
    const written = valueOfText(next);
    setSeen(written);
    onChange(written);
  };

  return (
    <div className="space-y-1" data-testid={testId}>
      <div className="flex gap-1">
        <button
          type="button"
          className={`${smallButtonClass} ${mode === "rows" ? "bg-slate-100" : ""}`}
          disabled={mode === "json" && (rowsFromJson === null || problem !== null || notJson)}
          title={
            mode === "json" && rowsFromJson === null
              ? "This schema uses more than rows can show (enums, deeper nesting...): edit it as JSON"
              : undefined
          }
          onClick={() => {
            setRows(rowsFromJson ?? []);
            setMode("rows");
          }}
          data-testid={`${testId}-rows-mode`}
        >
          Properties
        </button>
        <button
          type="button"
          className={`${smallButtonClass} ${mode === "json" ? "bg-slate-100" : ""}`}
          disabled={mode === "rows" && issues.length > 0}
          onClick={() => setMode("json")}
          data-testid={`${testId}-json-mode`}
        >
          Edit as JSON
        </button>
      </div>
      {mode === "rows" ? (
        <SchemaRowsEditor rows={rows} onChange={changeRows} testId={`${testId}-properties`} />
      ) : (
        <CodeEditor
          language="json"
          value={json}
          onChange={changeJson}
          complete={referenceCompletionSource(referenceItems, envNames)}
          label={`${label} (JSON Schema)`}
          testId={`${testId}-json`}
          invalid={problem !== null || notJson}
          placeholder='{ "type": "object", "properties": { ... } }'
        />
      )}
      {issues.map((issue, index) => (
        <p key={index} role="alert" className="text-[11px] text-red-700" data-testid={`${testId}-issue`}>
          Property {issue.at.map((at) => at + 1).join(".")}: {issue.message} (not applied until fixed)
        </p>
      ))}
      {problem && (
        <p role="alert" className="text-[11px] text-red-700" data-testid={`${testId}-issue`}>
          The schema {problem}
        </p>
      )}
      {showExample && issues.length === 0 && !problem && !notJson && parsed !== undefined && (
        <details className="text-[11px] text-slate-600" open>
          <summary className="cursor-pointer">Example answer</summary>
          <pre
            className="mt-0.5 max-h-40 overflow-auto rounded bg-slate-50 p-1.5 font-mono"
            data-testid={`${testId}-example`}
          >
            {JSON.stringify(exampleFromSchema(unwrappedSchema(parsed)), null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}

"use client";

import { useState } from "react";
import { CodeEditor } from "@/components/code-editor";
import { referenceCompletionSource } from "../../graph/reference-completion-source";
import { CompletionInput } from "./completion-input";
import { asString, inputClass, type FieldEditorProps } from "./field-props";

/** `text` and `prompt`: strings with reference and env completion (`code` is code-field.tsx). */
export function TextField(props: FieldEditorProps) {
  const { field } = props;
  return (
    <CompletionInput
      value={asString(props.value)}
      onChange={(text) => props.onChange(text === "" ? undefined : text)}
      referenceItems={props.referenceItems}
      envNames={props.envNames}
      multiline={field.kind !== "text"}
      placeholder={field.placeholder}
      label={field.label}
      testId={`field-${field.key}`}
      invalid={props.invalid}
    />
  );
}

/**
 * `json`: any JSON value, or plain text (a reference such as `<Agent.content>` is text). What the
 * box holds is kept as typed; the value stored is the parsed JSON when it parses.
 */
export function JsonField(props: FieldEditorProps) {
  const [text, setText] = useState(() => asString(props.value));
  const [seen, setSeen] = useState(props.value);
  // A value this box did not write (undo, redo) replaces what it shows.
  if (props.value !== seen) {
    setSeen(props.value);
    if (JSON.stringify(props.value) !== JSON.stringify(valueOfText(text))) setText(asString(props.value));
  }
  const parsed = parseJson(text);
  return (
    <div>
      <CodeEditor
        language="json"
        jsonOrText
        value={text}
        onChange={(next) => {
          setText(next);
          props.onChange(valueOfText(next));
        }}
        complete={referenceCompletionSource(props.referenceItems, props.envNames)}
        placeholder={props.field.placeholder ?? "JSON, or text with <references>"}
        label={props.field.label}
        testId={`field-${props.field.key}`}
        invalid={props.invalid}
      />
      {text.trim() !== "" && (
        <p className="mt-0.5 text-[11px] text-slate-500 dark:text-slate-400">
          {parsed.ok ? "JSON value" : "Text (not JSON)"}
        </p>
      )}
    </div>
  );
}

/** What a JSON box stores: nothing when empty, the parsed JSON when it parses, else the text (a reference). */
export function valueOfText(text: string): unknown {
  if (text.trim() === "") return undefined;
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : text;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export function NumberField(props: FieldEditorProps) {
  const value = typeof props.value === "number" ? String(props.value) : asString(props.value);
  return (
    <input
      type="text"
      inputMode="decimal"
      value={value}
      aria-label={props.field.label}
      aria-invalid={props.invalid || undefined}
      data-testid={`field-${props.field.key}`}
      className={inputClass}
      onChange={(event) => {
        const raw = event.target.value.trim();
        if (raw === "") return props.onChange(undefined);
        const number = Number(raw);
        // A reference or expression (loop counts accept them) stays text.
        props.onChange(Number.isFinite(number) && /^-?[\d.]+(e-?\d+)?$/i.test(raw) ? number : raw);
      }}
    />
  );
}

export function ToggleField(props: FieldEditorProps) {
  return (
    <input
      type="checkbox"
      checked={props.value === true}
      aria-label={props.field.label}
      data-testid={`field-${props.field.key}`}
      onChange={(event) => props.onChange(event.target.checked)}
    />
  );
}

export function SelectField(props: FieldEditorProps) {
  return (
    <select
      value={asString(props.value)}
      aria-label={props.field.label}
      data-testid={`field-${props.field.key}`}
      className={inputClass}
      onChange={(event) => props.onChange(event.target.value || undefined)}
    >
      <option value="">(default)</option>
      {props.field.options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

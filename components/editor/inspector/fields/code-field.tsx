"use client";

import { CodeEditor, type CodeLanguage } from "@/components/code-editor";
import { referenceCompletionSource } from "../../graph/reference-completion-source";
import { useEditorStore } from "../../store";
import { asString, type FieldEditorProps } from "./field-props";

/** The language a `code` field's sibling names (`languageKey`); JavaScript when it names none. */
export function codeLanguageOf(value: unknown): CodeLanguage {
  return value === "python" ? "python" : "javascript";
}

/** `code`: an editor for the language the block's `languageKey` field chose, with reference and env completion. */
export function CodeField(props: FieldEditorProps) {
  const { field } = props;
  const chosen = useEditorStore((state) =>
    field.languageKey
      ? state.nodes.find((node) => node.id === props.blockId)?.data.config[field.languageKey]
      : undefined,
  );
  const language = codeLanguageOf(chosen);
  return (
    <CodeEditor
      // The editor's language is set when it is made: another language makes another editor.
      key={language}
      language={language}
      value={asString(props.value)}
      onChange={(text) => props.onChange(text === "" ? undefined : text)}
      complete={referenceCompletionSource(props.referenceItems, props.envNames)}
      placeholder={field.placeholder}
      label={field.label}
      testId={`field-${field.key}`}
      invalid={props.invalid}
    />
  );
}

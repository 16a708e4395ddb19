"use client";

import { Annotation, Compartment, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useColorScheme } from "@/components/theme/use-color-scheme";
import type { CodeEditorProps } from "./code-editor-props";
import { editable, editorExtensions } from "./editor-extensions";
import { editorTheme } from "./editor-theme";
import { describeJsonProblem, jsonProblemToShow } from "./json-problem";

/** Marks a change that came from the `value` prop, so it is not reported back through `onChange`. */
const fromProps = Annotation.define<boolean>();

/**
 * CodeMirror 6 as a controlled field: `value` in, `onChange` out. The view is made once; the
 * colour scheme, read-only state and outside changes of `value` (undo, a reset) are applied to it.
 */
export default function CodeEditorView(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  const locked = useRef(false);
  const scheme = useColorScheme();
  const [compartments] = useState(() => ({ theme: new Compartment(), editable: new Compartment() }));

  useLayoutEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          editorExtensions({
            language: latest.current.language,
            jsonOrText: latest.current.jsonOrText,
            complete: latest.current.complete ? (context) => latest.current.complete?.(context) ?? null : undefined,
            placeholder: latest.current.placeholder,
            label: latest.current.label,
            testId: latest.current.testId,
            minLines: latest.current.minLines ?? (latest.current.language === "javascript" ? 8 : 3),
            invalid: () => latest.current.invalid === true,
            modEnter: () => {
              latest.current.onModEnter?.();
              return latest.current.onModEnter !== undefined;
            },
          }),
          compartments.theme.of(editorTheme(scheme)),
          compartments.editable.of(editable(false)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged || update.transactions.some((transaction) => transaction.annotation(fromProps)))
              return;
            latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    locked.current = false; // as made; the effect below locks it when it must be
    return () => {
      created.destroy();
      view.current = null;
    };
    // Made once per mount: later changes reach the view through the effects below and `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const current = view.current?.state.doc.toString();
    if (current === undefined || current === props.value) return;
    view.current!.dispatch({
      changes: { from: 0, to: current.length, insert: props.value },
      annotations: fromProps.of(true),
    });
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.theme.reconfigure(editorTheme(scheme)) });
  }, [scheme, compartments]);

  // Read-only when asked, or inside a disabled fieldset (the inspector of a read-only workflow), as a textarea would be.
  useEffect(() => {
    const lock = props.readOnly === true || host.current?.closest("fieldset:disabled") != null;
    if (lock === locked.current || !view.current) return;
    locked.current = lock;
    view.current.dispatch({ effects: compartments.editable.reconfigure(editable(lock)) });
  });

  const problem = props.language === "json" ? jsonProblemToShow(props.value, props.jsonOrText === true) : null;
  return (
    <div>
      <div
        ref={host}
        data-code-editor={props.language}
        className={`overflow-hidden rounded border focus-within:border-indigo-500 ${problem || props.invalid ? "border-red-400" : "border-slate-300 dark:border-slate-600"}`}
      />
      {problem && (
        <p
          role="alert"
          className="mt-0.5 text-[11px] text-red-700 dark:text-red-400"
          data-testid={props.testId ? `${props.testId}-problem` : undefined}
        >
          {describeJsonProblem(problem)}
        </p>
      )}
    </div>
  );
}

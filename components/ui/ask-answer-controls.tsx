"use client";

import { useState } from "react";
import type { AskAnswerRequest, AskPrompt } from "@/contract";
import { typedAskFields, type AskFieldValues } from "./ask-field-values";

const SIZES = {
  small: {
    input: "w-full rounded border border-slate-300 bg-white px-1 py-0.5 font-sans text-xs",
    label: "w-24",
    gap: "gap-1",
    button: "px-2 py-0.5 text-xs",
  },
  normal: {
    input: "w-full rounded border border-slate-300 px-2 py-1 text-sm",
    label: "w-32",
    gap: "gap-2",
    button: "",
  },
} as const;

/**
 * What a person answers an ask with, in the editor's run panel, on its node and in the public chat:
 * a text box when it takes text, its typed fields, and one button per choice (or Send when it has
 * none). A number field that does not read as a number, or an answer the server refuses, shows
 * its problem here and nothing is sent twice.
 */
export function AskAnswerControls({
  ask,
  submit,
  size,
  testIdPrefix,
}: {
  ask: Pick<AskPrompt, "allowText" | "fields" | "choices">;
  /** Sends the answer; a rejection's message is shown. */
  submit: (answer: AskAnswerRequest) => Promise<void>;
  size: keyof typeof SIZES;
  /** `ask` gives `ask-choice-<id>` and `ask-send`. */
  testIdPrefix: string;
}) {
  const [text, setText] = useState("");
  const [values, setValues] = useState<AskFieldValues>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const style = SIZES[size];
  const send = async (choice?: string) => {
    const typed = typedAskFields(ask.fields, values);
    if ("problem" in typed) return setProblem(typed.problem);
    setSending(true);
    try {
      await submit({
        ...(choice ? { choice } : {}),
        ...(ask.allowText && text.trim() ? { text } : {}),
        ...(ask.fields.length ? typed : {}),
      });
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      {ask.allowText && (
        <textarea
          className={style.input}
          rows={2}
          placeholder="Your answer"
          aria-label="Answer text"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      )}
      {ask.fields.map((field) => (
        <label key={field.name} className={`flex items-center ${style.gap}`}>
          <span className={`${style.label} shrink-0 truncate text-slate-600`}>{field.label || field.name}</span>
          {field.type === "boolean" ? (
            <input
              type="checkbox"
              checked={values[field.name] === true}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.checked })}
            />
          ) : (
            <input
              className={style.input}
              inputMode={field.type === "number" ? "decimal" : undefined}
              value={typeof values[field.name] === "string" ? (values[field.name] as string) : ""}
              onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
              aria-label={field.label || field.name}
            />
          )}
        </label>
      ))}
      {problem && (
        <p className="text-red-700" role="alert">
          {problem}
        </p>
      )}
      <div className={`flex flex-wrap ${style.gap}`}>
        {ask.choices.length > 0 ? (
          ask.choices.map((choice) => (
            <button
              key={choice.id}
              type="button"
              className={`btn-secondary ${style.button}`}
              disabled={sending}
              onClick={() => void send(choice.id)}
              data-testid={`${testIdPrefix}-choice-${choice.id}`}
            >
              {choice.label || choice.id}
            </button>
          ))
        ) : (
          <button
            type="button"
            className={`btn-primary ${style.button}`}
            disabled={sending}
            onClick={() => void send()}
            data-testid={`${testIdPrefix}-send`}
          >
            Send
          </button>
        )}
      </div>
    </>
  );
}

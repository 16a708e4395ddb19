"use client";

import { useState } from "react";
import type { AskAnswerRequest, AskPrompt } from "@/contract";
import { typedAskFields, type AskFieldValues } from "@/components/ui/ask-field-values";

/** The question a reply waits on, as the chat shows it: choice buttons, a text box when it takes text, its fields. */
export function ChatAsk({ ask, onAnswer }: { ask: AskPrompt & { spanId: string }; onAnswer: (answer: AskAnswerRequest) => Promise<void> }) {
  const [text, setText] = useState("");
  const [values, setValues] = useState<AskFieldValues>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (choice?: string) => {
    const typed = typedAskFields(ask.fields, values);
    if ("problem" in typed) return setProblem(typed.problem);
    setSending(true);
    try {
      await onAnswer({ ...(choice ? { choice } : {}), ...(ask.allowText && text.trim() ? { text } : {}), ...(ask.fields.length ? typed : {}) });
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  const inputClass = "w-full rounded border border-slate-300 px-2 py-1 text-sm";
  return (
    <li className="max-w-[80%] space-y-2 self-start rounded-lg border border-sky-300 bg-sky-50 p-3 text-sm" data-testid="chat-ask">
      <p className="whitespace-pre-wrap text-slate-800">{ask.question}</p>
      {ask.allowText && <textarea className={inputClass} rows={2} aria-label="Your answer" value={text} onChange={(event) => setText(event.target.value)} />}
      {ask.fields.map((field) => (
        <label key={field.name} className="flex items-center gap-2">
          <span className="w-32 shrink-0 text-slate-600">{field.label || field.name}</span>
          {field.type === "boolean" ? (
            <input type="checkbox" checked={values[field.name] === true} onChange={(event) => setValues({ ...values, [field.name]: event.target.checked })} />
          ) : (
            <input
              className={inputClass}
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
      <div className="flex flex-wrap gap-2">
        {ask.choices.length > 0 ? (
          ask.choices.map((choice) => (
            <button
              key={choice.id}
              type="button"
              className="btn-secondary"
              disabled={sending}
              onClick={() => void send(choice.id)}
              data-testid={`chat-ask-choice-${choice.id}`}
            >
              {choice.label || choice.id}
            </button>
          ))
        ) : (
          <button type="button" className="btn-primary" disabled={sending} onClick={() => void send()} data-testid="chat-ask-send">
            Send
          </button>
        )}
      </div>
    </li>
  );
}

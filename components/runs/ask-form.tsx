"use client";

import { useMemo, useState } from "react";
import type { AskAnswerRequest } from "@/contract";
import { typedAskFields, type AskFieldValues } from "@/components/ui/ask-field-values";
import { isLive, useEditorStore, type AskEntry } from "@/components/editor/store";
import { useRunActions } from "./use-run-actions";

function AnswerSummary({ ask }: { ask: AskEntry }) {
  const answer = ask.answer!;
  if (answer.timedOut) return <p data-testid="ask-answer">Nobody answered in time: went on along timeout.</p>;
  const label = ask.choices.find((choice) => choice.id === answer.choice)?.label ?? answer.choice;
  return (
    <p data-testid="ask-answer">
      Answered{label ? ` "${label}"` : ""}
      {answer.text ? `: ${answer.text}` : ""}
      {answer.answeredBy ? ` by ${answer.answeredBy}` : ""}
    </p>
  );
}

/**
 * A waiting ask as a form: its question, a text box when it allows text, its typed fields, and
 * one button per choice (or Send when it has none). Shown in the run console and on the node.
 */
export function AskForm({ ask, compact = false }: { ask: AskEntry; compact?: boolean }) {
  const actions = useRunActions();
  const live = useEditorStore((state) => isLive(state.run.view));
  const readOnly = useEditorStore((state) => state.readOnly);
  const [text, setText] = useState("");
  const [values, setValues] = useState<AskFieldValues>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (choice?: string) => {
    const typed = typedAskFields(ask.fields, values);
    if ("problem" in typed) return setProblem(typed.problem);
    setProblem(null);
    const body: AskAnswerRequest = { ...(choice ? { choice } : {}), ...(ask.allowText && text.trim() ? { text } : {}), ...(ask.fields.length ? typed : {}) };
    setSending(true);
    await actions.answer(ask.spanId, body);
    setSending(false);
  };
  const inputClass = "w-full rounded border border-slate-300 bg-white px-1 py-0.5 font-sans text-xs";
  return (
    <div
      className={`nodrag nopan nowheel my-1 space-y-1 rounded border border-sky-300 bg-sky-50 p-2 font-sans text-xs ${compact ? "mx-2 mb-2" : ""}`}
      data-testid={compact ? `node-ask-${ask.spanId}` : `ask-${ask.spanId}`}
    >
      <p className="whitespace-pre-wrap text-slate-800" data-testid="ask-question">
        {ask.question}
      </p>
      {ask.answer ? (
        <AnswerSummary ask={ask} />
      ) : !live ? (
        <p className="text-slate-500">Not answered before the run ended.</p>
      ) : readOnly ? (
        <p className="text-slate-500">Waiting for an editor of this workspace to answer.</p>
      ) : (
        <>
          {ask.allowText && (
            <textarea
              className={inputClass}
              rows={2}
              placeholder="Your answer"
              aria-label="Answer text"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          )}
          {ask.fields.map((field) => (
            <label key={field.name} className="flex items-center gap-1">
              <span className="w-24 shrink-0 truncate text-slate-600">{field.label || field.name}</span>
              {field.type === "boolean" ? (
                <input
                  type="checkbox"
                  checked={values[field.name] === true}
                  onChange={(event) => setValues({ ...values, [field.name]: event.target.checked })}
                />
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
          <div className="flex flex-wrap gap-1">
            {ask.choices.length > 0 ? (
              ask.choices.map((choice) => (
                <button
                  key={choice.id}
                  type="button"
                  className="btn-secondary px-2 py-0.5 text-xs"
                  disabled={sending}
                  onClick={() => void send(choice.id)}
                  data-testid={`ask-choice-${choice.id}`}
                >
                  {choice.label || choice.id}
                </button>
              ))
            ) : (
              <button type="button" className="btn-primary px-2 py-0.5 text-xs" disabled={sending} onClick={() => void send()} data-testid="ask-send">
                Send
              </button>
            )}
          </div>
        </>
      )}
    </div>
  );
}

/** The asks of one block still waiting for an answer, for its node on the canvas. */
export function NodeAsks({ blockId }: { blockId: string }) {
  const asks = useEditorStore((state) => state.run.view.asks);
  const waiting = useMemo(() => asks.filter((ask) => ask.blockId === blockId && !ask.answer), [asks, blockId]);
  if (waiting.length === 0) return null;
  return (
    <>
      {waiting.map((ask) => (
        <AskForm key={ask.spanId} ask={ask} compact />
      ))}
    </>
  );
}

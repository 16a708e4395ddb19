"use client";

import { useMemo } from "react";
import { AskAnswerControls } from "@/components/ui/ask-answer-controls";
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
  const readOnly = useEditorStore((state) => !state.mayAnswer);
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
        <AskAnswerControls
          ask={ask}
          submit={async (answer) => {
            await actions.answer(ask.spanId, answer);
          }}
          size="small"
          testIdPrefix="ask"
        />
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

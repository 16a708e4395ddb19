"use client";

import type { AskAnswerRequest, AskPrompt } from "@/contract";
import { AskAnswerControls } from "@/components/ui/ask-answer-controls";

/** The question a reply waits on, as the chat shows it, with the controls to answer it. */
export function ChatAsk({
  ask,
  onAnswer,
}: {
  ask: AskPrompt & { spanId: string };
  onAnswer: (answer: AskAnswerRequest) => Promise<void>;
}) {
  return (
    <li
      className="max-w-[80%] space-y-2 self-start rounded-lg border border-sky-300 bg-sky-50 p-3 text-sm"
      data-testid="chat-ask"
    >
      <p className="whitespace-pre-wrap text-slate-800">{ask.question}</p>
      <AskAnswerControls ask={ask} submit={onAnswer} size="normal" testIdPrefix="chat-ask" />
    </li>
  );
}

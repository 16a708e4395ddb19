import "server-only";
import { CHAT_FAILED_MESSAGE, type ChatStreamEvent, type RunEvent } from "@/contract";
import { replyText } from "./chat-reply";

export interface ChatStreamAudience {
  conversationId: string;
  /** The blocks whose streamed text is the answer (answeringBlockIds). */
  answering: ReadonlySet<string>;
  /** A member of the chat's workspace: also sees what the reply cost, and why a run failed. */
  member: boolean;
}

/**
 * A run event as a chat page receives it (contract ChatStreamEvent), or null when the page is
 * not to see it: other blocks' starts, outputs and text, tool calls, pauses. An ask on the reply's
 * path is shown as its question and what may be answered. The public never gets a cost, a token
 * count, a block's name, who answered or an error's internals.
 */
export function chatEventPresenter(
  audience: ChatStreamAudience,
): (event: RunEvent) => { event: string; data: ChatStreamEvent } | null {
  const shown = (data: ChatStreamEvent) => ({ event: data.type, data });
  return (event) => {
    switch (event.type) {
      case "run.started":
        return shown({
          type: "run.started",
          runId: event.runId,
          conversationId: audience.conversationId,
          startedAt: event.startedAt,
        });
      case "block.delta":
        return audience.answering.has(event.blockId)
          ? shown({ type: "block.delta", runId: event.runId, spanId: event.spanId, text: event.text })
          : null;
      case "run.completed":
        return shown({
          type: "run.completed",
          runId: event.runId,
          reply: replyText(event.output),
          ...(audience.member ? { cost: event.cost, tokens: event.tokens } : {}),
        });
      case "run.failed":
        return shown({
          type: "run.failed",
          runId: event.runId,
          error: audience.member
            ? { code: event.error.code, message: event.error.message }
            : { message: CHAT_FAILED_MESSAGE },
        });
      case "run.cancelled":
        return shown({ type: "run.cancelled", runId: event.runId });
      case "ask.requested":
        return shown({
          type: "ask.requested",
          runId: event.runId,
          spanId: event.spanId,
          question: event.question,
          choices: event.choices,
          allowText: event.allowText,
          fields: event.fields,
        });
      case "ask.answered":
        return shown({ type: "ask.answered", runId: event.runId, spanId: event.spanId });
      default:
        return null;
    }
  };
}

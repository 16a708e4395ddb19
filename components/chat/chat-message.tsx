import type { ChatMessageView } from "@/contract";
import { formatCost } from "@/components/ui/format";
import { ChatMarkdown } from "./chat-markdown";

const STATUS_NOTES: Partial<Record<ChatMessageView["status"], string>> = {
  cancelled: "Stopped.",
  failed: "No answer.",
};

/**
 * One message: the visitor's as plain text, a reply as sanitised markdown. `cost` is only ever
 * present for members of the chat's workspace (the server leaves it out for everyone else).
 */
export function ChatMessage({
  role,
  content,
  status,
  error,
  cost,
}: Pick<ChatMessageView, "role" | "content" | "status" | "cost"> & { error?: string }) {
  const mine = role === "user";
  return (
    <li
      className={`flex ${mine ? "justify-end" : "justify-start"}`}
      data-testid="chat-message"
      data-role={role}
      data-status={status}
    >
      <div
        className={`max-w-[80%] rounded-lg px-3 py-2 ${mine ? "bg-indigo-600 text-white" : "border border-slate-200 bg-white text-slate-900"}`}
      >
        {mine ? (
          <p className="text-sm whitespace-pre-wrap">{content}</p>
        ) : content ? (
          <ChatMarkdown text={content} />
        ) : status === "pending" ? (
          <p className="text-sm text-slate-400" aria-live="polite">
            Thinking…
          </p>
        ) : null}
        {!mine && (error || STATUS_NOTES[status]) && (
          <p className="mt-1 text-xs text-slate-500" data-testid="chat-message-note">
            {error ?? STATUS_NOTES[status]}
          </p>
        )}
        {!mine && cost !== undefined && status !== "pending" && (
          <p
            className="mt-1 text-right text-xs text-slate-400"
            data-testid="chat-cost"
            title="What this reply cost (shown to workspace members only)"
          >
            {formatCost({ cost, unpriced: cost === null })}
          </p>
        )}
      </div>
    </li>
  );
}

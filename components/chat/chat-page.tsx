"use client";

import { MessageSquarePlus, Send, Square } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ApiError, CHAT_MESSAGE_MAX_BYTES } from "@/contract";
import { ChatAsk } from "./chat-ask";
import { ChatMessage } from "./chat-message";
import { ChatPasswordForm } from "./chat-password-form";
import { useChat, type ChatState } from "./use-chat";

function ConversationList({ chat }: { chat: ChatState }) {
  const items = chat.conversations.data ?? [];
  return (
    <aside className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white" aria-label="Conversations">
      <div className="border-b border-slate-200 p-3">
        <button
          type="button"
          className="btn-secondary w-full justify-center"
          onClick={() => chat.open(null)}
          data-testid="chat-new-conversation"
        >
          <MessageSquarePlus size={14} aria-hidden /> New conversation
        </button>
      </div>
      <ul className="flex-1 overflow-y-auto p-2 text-sm">
        {items.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              onClick={() => chat.open(conversation.id)}
              className={`w-full truncate rounded px-2 py-1.5 text-left hover:bg-slate-100 ${conversation.id === chat.conversationId ? "bg-slate-100 font-medium" : ""}`}
              data-testid="chat-conversation"
              aria-current={conversation.id === chat.conversationId ? "true" : undefined}
            >
              {conversation.title || "Conversation"}
            </button>
          </li>
        ))}
        {items.length === 0 && <li className="px-2 py-1.5 text-slate-400">No conversations yet.</li>}
      </ul>
    </aside>
  );
}

function MessageList({ chat }: { chat: ChatState }) {
  const end = useRef<HTMLLIElement>(null);
  const stored = chat.conversationId ? (chat.messages.data ?? []) : [];
  const { pending } = chat;
  useEffect(() => {
    // A block, not an arrow's value: newer browsers' scrollIntoView answers a promise, which React would take for a cleanup.
    end.current?.scrollIntoView({ block: "end" });
  }, [stored.length, pending?.reply, pending?.status, pending?.ask]);
  if (stored.length === 0 && !pending) {
    return <p className="m-auto text-sm text-slate-400">Ask anything to start a conversation.</p>;
  }
  return (
    <ol className="flex flex-col gap-3 p-4" data-testid="chat-messages">
      {stored.map((message) => (
        <ChatMessage key={message.id} {...message} />
      ))}
      {pending && (
        <>
          <ChatMessage role="user" content={pending.message} status="complete" />
          <ChatMessage
            role="assistant"
            content={pending.reply}
            status={pending.status}
            error={pending.error}
            cost={pending.cost}
          />
          {pending.ask && (
            <ChatAsk
              key={pending.ask.spanId}
              ask={pending.ask}
              onAnswer={(body) => chat.answer(pending.ask!.spanId, body)}
            />
          )}
        </>
      )}
      <li ref={end} aria-hidden />
    </ol>
  );
}

function Composer({ chat }: { chat: ChatState }) {
  const [text, setText] = useState("");
  const streaming = chat.pending?.status === "pending";
  const tooLong = new TextEncoder().encode(text).length > CHAT_MESSAGE_MAX_BYTES;
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || streaming || tooLong) return;
    setText("");
    void chat.send(message);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) submit(event);
  };
  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t border-slate-200 bg-white p-3">
      <textarea
        className="max-h-48 min-h-10 flex-1 resize-y rounded border border-slate-300 px-2 py-1.5 text-sm"
        placeholder="Write a message (Enter sends, Shift+Enter for a new line)"
        aria-label="Message"
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        data-testid="chat-input"
      />
      {tooLong && <span className="text-xs text-red-600">Too long (16 KB at most)</span>}
      {streaming ? (
        <button
          type="button"
          className="btn-secondary"
          onClick={() => void chat.stop()}
          disabled={!chat.pending?.conversationId}
          data-testid="chat-stop"
        >
          <Square size={14} aria-hidden /> Stop
        </button>
      ) : (
        <button type="submit" className="btn-primary" disabled={!text.trim() || tooLong} data-testid="chat-send">
          <Send size={14} aria-hidden /> Send
        </button>
      )}
    </form>
  );
}

/** The public chat page at /chat/:chatId: no account needed, only the chat's password when it has one. */
export function ChatPage({ chatId }: { chatId: string }) {
  const chat = useChat(chatId);
  if (chat.info.error) {
    const missing = chat.info.error instanceof ApiError && chat.info.error.status === 404;
    return (
      <p className="m-auto mt-24 max-w-md text-center text-slate-600" data-testid="chat-unavailable">
        {missing
          ? "This chat is not available. The link may be wrong, or the chat was turned off."
          : chat.info.error.message}
      </p>
    );
  }
  if (!chat.info.data) return <p className="mt-24 text-center text-sm text-slate-400">Loading…</p>;
  const title = chat.info.data.title || "Chat";
  if (chat.locked) return <ChatPasswordForm title={title} onUnlock={chat.unlock} />;
  return (
    <div className="flex h-screen">
      <ConversationList chat={chat} />
      <main className="flex min-w-0 flex-1 flex-col">
        <header className="border-b border-slate-200 bg-white px-4 py-3">
          <h1 className="text-base font-semibold" data-testid="chat-title">
            {title}
          </h1>
        </header>
        <div className="flex flex-1 flex-col overflow-y-auto">
          <MessageList chat={chat} />
        </div>
        <Composer chat={chat} />
      </main>
    </div>
  );
}

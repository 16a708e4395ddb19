"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { api, apiErrorFrom, ApiError, type AskAnswerRequest, type AskPrompt, type ChatMessageView } from "@/contract";
import { readChatStream } from "./read-chat-stream";

/** The reply being written: what the page shows until the stored messages are read again. */
export interface PendingExchange {
  conversationId: string | null;
  message: string;
  reply: string;
  status: ChatMessageView["status"];
  error?: string;
  cost?: ChatMessageView["cost"];
  /** The question the reply waits on, until the visitor answers it. */
  ask?: AskPrompt & { spanId: string };
}

const keys = {
  info: (chatId: string) => ["chat", chatId, "info"] as const,
  conversations: (chatId: string) => ["chat", chatId, "conversations"] as const,
  messages: (chatId: string, conversationId: string | null) => ["chat", chatId, "messages", conversationId] as const,
};

const isPasswordRefusal = (error: unknown) => error instanceof ApiError && error.code === "password_required";

/**
 * A visitor's chat: the chat's info, their conversations, the open conversation's messages, and
 * sending a message whose reply streams in (`pending`) until it is stored. A 401 anywhere means
 * the chat's password is needed (`locked`).
 */
export function useChat(chatId: string) {
  const queryClient = useQueryClient();
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingExchange | null>(null);
  const [refusedPassword, setRefusedPassword] = useState(false);

  const info = useQuery({ queryKey: keys.info(chatId), queryFn: () => api.chat.info(chatId), retry: false });
  const unlocked = info.data !== undefined && !info.data.passwordRequired && !refusedPassword;
  const conversations = useQuery({
    queryKey: keys.conversations(chatId),
    queryFn: () => api.chat.conversations(chatId),
    enabled: unlocked,
    retry: false,
  });
  const messages = useQuery({
    queryKey: keys.messages(chatId, conversationId),
    queryFn: () => (conversationId ? api.chat.messages(chatId, conversationId) : Promise.resolve([])),
    // Not read again while a reply streams: the pending exchange shows it until it is stored.
    enabled: unlocked && pending === null,
    retry: false,
  });
  const locked =
    Boolean(info.data?.passwordRequired) ||
    refusedPassword ||
    [conversations.error, messages.error].some(isPasswordRefusal);

  const unlock = useCallback(
    async (password: string) => {
      await api.chat.unlock(chatId, password);
      setRefusedPassword(false);
      await queryClient.invalidateQueries({ queryKey: ["chat", chatId] });
    },
    [chatId, queryClient],
  );

  const send = useCallback(
    async (message: string) => {
      const exchange: PendingExchange = { conversationId, message, reply: "", status: "pending" };
      const show = (change: Partial<PendingExchange>) => setPending({ ...Object.assign(exchange, change) });
      show({});
      try {
        const response = await fetch(api.chat.messagesUrl(chatId), {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify(conversationId ? { message, conversationId } : { message }),
        });
        if (!response.ok || !response.body) throw apiErrorFrom(response.status, await response.text());
        await readChatStream(response.body, (event) => {
          if (event.type === "run.started") {
            show({ conversationId: event.conversationId });
            setConversationId(event.conversationId);
          } else if (event.type === "block.delta") show({ reply: exchange.reply + event.text });
          else if (event.type === "ask.requested") {
            const { type: _type, runId: _runId, ...ask } = event;
            show({ ask });
          } else if (event.type === "ask.answered") show({ ask: undefined });
          else if (event.type === "run.completed")
            show({ reply: event.reply, status: "complete", cost: event.cost, ask: undefined });
          else if (event.type === "run.failed") show({ status: "failed", error: event.error.message, ask: undefined });
          else show({ status: "cancelled", ask: undefined });
        });
        if (exchange.status === "pending")
          show({ status: "failed", error: "The answer was cut off. Please try again." });
      } catch (error) {
        if (isPasswordRefusal(error)) setRefusedPassword(true);
        show({ status: "failed", error: error instanceof Error ? error.message : String(error) });
        return;
      }
      // The stored conversation now holds both messages (the run's row is stored before its last
      // event is sent): read it, then drop the pending copy.
      const id = exchange.conversationId;
      await queryClient.invalidateQueries({ queryKey: keys.conversations(chatId) });
      if (id)
        await queryClient.fetchQuery({
          queryKey: keys.messages(chatId, id),
          queryFn: () => api.chat.messages(chatId, id),
          staleTime: 0,
        });
      setPending((current) => (current === null || current.message === exchange.message ? null : current));
    },
    [chatId, conversationId, queryClient],
  );

  const stop = useCallback(async () => {
    const id = pending?.conversationId;
    if (id) await api.chat.stop(chatId, id);
  }, [chatId, pending?.conversationId]);

  /** Answers the question the reply waits on; the reply's stream goes on. Throws the server's refusal. */
  const answer = useCallback(
    async (spanId: string, body: AskAnswerRequest) => {
      const id = pending?.conversationId;
      if (id) await api.chat.answer(chatId, id, spanId, body);
    },
    [chatId, pending?.conversationId],
  );

  const open = useCallback((id: string | null) => {
    setPending(null);
    setConversationId(id);
  }, []);

  return { info, conversations, messages, conversationId, pending, locked, unlock, send, stop, answer, open };
}

export type ChatState = ReturnType<typeof useChat>;

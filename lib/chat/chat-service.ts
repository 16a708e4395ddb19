import "server-only";
import { randomUUID } from "node:crypto";
import {
  CHAT_MESSAGE_MAX_BYTES,
  ENDED_RUN_STATUSES,
  type AskAnswerRequest,
  type ChatConversationSummary,
  type ChatHistoryMessage,
  type ChatMessageStatus,
  type ChatMessageView,
  type PublicChatInfo,
  type RunRecord,
} from "@/contract";
import { isTrellisError } from "@/executor";
import { NotFoundError, type KeysetPage, type KeysetResult, type Repositories, type TimeAndId } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { runIntake } from "@/lib/runs/run-intake";
import type { RunService } from "@/lib/runs/run-service";
import { runEventStream } from "@/lib/runs/run-stream";
import { documentToRun } from "@/lib/runs/run-target";
import { verifyChatPassword, type ChatAccessTokens, type Visitor } from "./chat-access";
import type { ChatPasswordGuesses } from "./chat-password-guesses";
import { answeringBlockIds, CHAT_HISTORY_LIMIT, chatRunInput, replyText } from "./chat-reply";
import type { ChatRepository, StoredChat, StoredChatMessage } from "./chat-repository";
import { chatEventPresenter } from "./chat-stream";
import { processLogger } from "@/lib/observability";

export interface ChatServiceDependencies {
  chats: ChatRepository;
  repositories: Pick<Repositories, "workflows" | "deployments" | "runs" | "runEvents" | "workspaces">;
  runs: Pick<RunService, "start" | "cancel" | "liveRun" | "nextSignal" | "asks">;
  access: ChatAccessTokens;
  /** The limits on guesses at a chat's password. */
  passwordGuesses: ChatPasswordGuesses;
  /** The signed-in user sending the request (a session or an API key), or null: who may see costs. */
  signedIn(request: Request): Promise<{ userId: string } | null>;
}

const TITLE_LENGTH = 80;
/** Who answered an ask from the public chat, as its output and span record it (a visitor has no name). */
const CHAT_VISITOR = "chat visitor";

const statusOf = (run: RunRecord | null): ChatMessageStatus =>
  !run
    ? "failed"
    : run.status === "succeeded"
      ? "complete"
      : run.status === "failed" || run.status === "cancelled"
        ? run.status
        : "pending";

/**
 * What a visitor of `/chat/:chatId` can do: read the chat's title, give its password, send a
 * message (a run of the active deployment, streamed), list and read their own conversations, and
 * stop a reply. A disabled or unknown chat answers 404 to all of it and runs nothing; a chat with
 * a password answers 401 `password_required` until the visitor gave it.
 */
export function createChatService(deps: ChatServiceDependencies) {
  const { chats, repositories, runs, access } = deps;

  /** @throws NotFoundError for an unknown or disabled chat (the same answer, so a disabled one tells nothing) */
  const openChat = async (chatId: string): Promise<StoredChat> => {
    const chat = await chats.byId(chatId);
    if (!chat?.enabled) throw new NotFoundError("Chat", chatId);
    return chat;
  };
  const unlocked = (request: Request, chat: StoredChat, visitor: Visitor): boolean =>
    chat.passwordHash === null || access.grants(request, { id: chat.id, passwordHash: chat.passwordHash }, visitor.id);
  /** The chat, when the visitor may talk to it. */
  const enter = async (request: Request, chatId: string, visitor: Visitor): Promise<StoredChat> => {
    const chat = await openChat(chatId);
    if (!unlocked(request, chat, visitor)) throw new RequestError("password_required", "This chat needs a password.");
    return chat;
  };
  const isMember = async (request: Request, chat: StoredChat): Promise<boolean> => {
    // A visitor is rarely signed in; an unreadable session makes them a visitor, who sees no costs (the safe side).
    const user = await deps.signedIn(request).catch((error: unknown) => {
      processLogger().error({ err: error }, "chat: could not read the session");
      return null;
    });
    return user !== null && (await repositories.workspaces.roleOf(chat.workspaceId, user.userId)) !== null;
  };
  const conversationOf = async (chat: StoredChat, visitor: Visitor, conversationId: string) => {
    const conversation = await chats.conversation(chat.id, visitor.id, conversationId);
    if (!conversation) throw new NotFoundError("Conversation", conversationId);
    return conversation;
  };
  const runOf = (chat: StoredChat, message: StoredChatMessage): Promise<RunRecord | null> =>
    // A reply whose run was deleted (with its workflow's history) has no run; anything else is a real failure.
    message.runId
      ? repositories.runs.get(chat.workspaceId, message.runId).catch((error: unknown) => {
          if (isTrellisError(error) && error.code === "not_found") return null;
          throw error;
        })
      : Promise.resolve(null);

  /**
   * A reply with its run: an empty reply whose run has succeeded gets its text now (the process
   * that would have written it may have stopped before it could).
   */
  const settle = async (
    chat: StoredChat,
    message: StoredChatMessage,
  ): Promise<{ message: StoredChatMessage; run: RunRecord | null }> => {
    if (message.role !== "assistant") return { message, run: null };
    const run = await runOf(chat, message);
    if (message.content === "" && run?.status === "succeeded") {
      const content = replyText(run.output);
      if (content !== "") await chats.writeReply(message.id, content);
      return { message: { ...message, content }, run };
    }
    return { message, run };
  };

  /** The conversation's earlier messages as the workflow gets them: replies that failed, were stopped or are still coming are left out. */
  const historyOf = async (chat: StoredChat, conversationId: string): Promise<ChatHistoryMessage[]> => {
    const settled = await Promise.all(
      (await chats.latestMessages(conversationId, CHAT_HISTORY_LIMIT)).map((message) => settle(chat, message)),
    );
    return settled
      .filter(({ message }) => message.role === "user" || message.content !== "")
      .map(({ message }) => ({ role: message.role, content: message.content }));
  };

  return {
    async info(request: Request, chatId: string, visitor: Visitor): Promise<PublicChatInfo> {
      const chat = await openChat(chatId);
      return { chatId: chat.id, title: chat.title, passwordRequired: !unlocked(request, chat, visitor) };
    },

    /**
     * Checks the password; answers the Set-Cookie remembering it.
     * @throws password_required when it is wrong; too_many_attempts while too many wrong ones make the visitor wait
     */
    async unlock(request: Request, chatId: string, visitor: Visitor, password: string): Promise<string | null> {
      const chat = await openChat(chatId);
      if (chat.passwordHash === null) return null;
      const passwordHash = chat.passwordHash;
      const right = await deps.passwordGuesses.check(request, chat.id, visitor.id, () =>
        verifyChatPassword(passwordHash, password),
      );
      if (!right) throw new RequestError("password_required", "That password is not the chat's.");
      return access.grant(request, { id: chat.id, passwordHash: chat.passwordHash }, visitor.id);
    },

    /**
     * Starts a run of the active deployment for the message and answers its stream for this
     * reader. Nothing is stored when the run cannot start (no deployment: 409 `not_deployed`).
     */
    async send(
      request: Request,
      chatId: string,
      visitor: Visitor,
      body: { message: string; conversationId?: string },
    ): Promise<Response> {
      const chat = await enter(request, chatId, visitor);
      const size = Buffer.byteLength(body.message, "utf8");
      if (size > CHAT_MESSAGE_MAX_BYTES) {
        throw new RequestError(
          "too_large",
          `The message is ${size} bytes; a chat message may be at most ${CHAT_MESSAGE_MAX_BYTES / 1024} KB.`,
          [{ path: "message", message: `must be at most ${CHAT_MESSAGE_MAX_BYTES} bytes` }],
        );
      }
      const existing = body.conversationId ? await conversationOf(chat, visitor, body.conversationId) : null;
      const conversationId = existing?.id ?? randomUUID();
      const history = existing ? await historyOf(chat, existing.id) : [];
      const { document } = await documentToRun(repositories, chat.workspaceId, chat.workflowId, "active-deployment");
      const live = await runIntake().accept(() =>
        runs.start(chat.workspaceId, chat.workflowId, chatRunInput(document, body.message, history), {
          target: "active-deployment",
          trigger: { kind: "chat", conversationId },
        }),
      );
      const title = body.message.replace(/\s+/g, " ").slice(0, TITLE_LENGTH);
      const { replyId } = await chats.addExchange(
        { id: conversationId, chatId: chat.id, visitorId: visitor.id, title, create: !existing },
        body.message,
        live.runId,
      );
      void live.done
        .then((run) => (run.status === "succeeded" ? chats.writeReply(replyId, replyText(run.output)) : undefined))
        .catch((error: unknown) =>
          processLogger().error({ runId: live.runId, err: error }, "the chat's reply was not stored"),
        );
      const present = chatEventPresenter({
        conversationId,
        answering: answeringBlockIds(document),
        member: await isMember(request, chat),
      });
      return runEventStream({
        runId: live.runId,
        afterSeq: 0,
        runs,
        events: repositories.runEvents,
        signal: request.signal,
        present,
      });
    },

    async conversations(
      request: Request,
      chatId: string,
      visitor: Visitor,
      page: KeysetPage<TimeAndId>,
    ): Promise<KeysetResult<ChatConversationSummary, TimeAndId>> {
      const chat = await enter(request, chatId, visitor);
      const result = await chats.conversations(chat.id, visitor.id, page);
      return {
        next: result.next,
        items: result.items.map((row) => ({
          id: row.id,
          title: row.title,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        })),
      };
    },

    /** A conversation's messages, with what each reply cost for members of the chat's workspace. */
    async messages(
      request: Request,
      chatId: string,
      visitor: Visitor,
      conversationId: string,
      page: KeysetPage<TimeAndId>,
    ): Promise<KeysetResult<ChatMessageView, TimeAndId>> {
      const chat = await enter(request, chatId, visitor);
      await conversationOf(chat, visitor, conversationId);
      const member = await isMember(request, chat);
      const result = await chats.messages(conversationId, page);
      const items = await Promise.all(
        result.items.map(async (stored): Promise<ChatMessageView> => {
          const { message, run } = await settle(chat, stored);
          const view = {
            id: message.id,
            role: message.role,
            content: message.content,
            createdAt: message.createdAt.toISOString(),
          };
          if (message.role === "user") return { ...view, status: "complete" };
          return { ...view, status: statusOf(run), ...(member && run ? { cost: run.cost, tokens: run.tokens } : {}) };
        }),
      );
      return { items, next: result.next };
    },

    /**
     * Answers an ask the conversation's reply waits on (the visitor is who answers); the reply's
     * stream goes on. Only the visitor whose conversation it is can, and only for its latest reply.
     */
    async answerAsk(
      request: Request,
      chatId: string,
      visitor: Visitor,
      conversationId: string,
      spanId: string,
      body: AskAnswerRequest,
    ): Promise<void> {
      const chat = await enter(request, chatId, visitor);
      await conversationOf(chat, visitor, conversationId);
      const reply = await chats.latestReply(conversationId);
      const run = reply ? await runOf(chat, reply) : null;
      if (!run) throw new NotFoundError("Ask", spanId);
      await runs.asks.answer(chat.workspaceId, run.id, spanId, body, CHAT_VISITOR);
    },

    /** Stops the conversation's reply in progress; false when none is. Only the visitor whose conversation it is can. */
    async stop(request: Request, chatId: string, visitor: Visitor, conversationId: string): Promise<boolean> {
      const chat = await enter(request, chatId, visitor);
      await conversationOf(chat, visitor, conversationId);
      const reply = await chats.latestReply(conversationId);
      const run = reply ? await runOf(chat, reply) : null;
      if (!run || ENDED_RUN_STATUSES.includes(run.status)) return false;
      // A run that ends between the read and the cancel is left as it ended.
      await runs.cancel(chat.workspaceId, run.id);
      return true;
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;

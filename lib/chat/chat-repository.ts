import "server-only";
import type { ChatRole } from "@/contract";
import {
  afterTimeAndId,
  assertWorkflowInWorkspace,
  capabilityId,
  keysetResult,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type PrismaClient,
  type TimeAndId,
} from "@/lib/db";

/** A workflow's chat as stored: the password only as its hash. */
export interface StoredChat {
  id: string;
  workspaceId: string;
  workflowId: string;
  enabled: boolean;
  title: string;
  passwordHash: string | null;
}

export interface StoredConversation {
  id: string;
  chatId: string;
  visitorId: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoredChatMessage {
  id: string;
  conversationId: string;
  role: ChatRole;
  content: string;
  /** The run answering it (assistant messages). */
  runId: string | null;
  createdAt: Date;
}

const chatFields = {
  id: true,
  workspaceId: true,
  workflowId: true,
  enabled: true,
  title: true,
  passwordHash: true,
} as const;

function toMessage(row: {
  id: string;
  conversationId: string;
  role: string;
  content: string;
  runId: string | null;
  createdAt: Date;
}): StoredChatMessage {
  return { ...row, role: row.role === "assistant" ? "assistant" : "user" };
}

/**
 * Chats, their conversations and messages. A member's reads and writes name the workspace; a
 * visitor's name the chat (its id is the capability the link hands out) and the visitor, so a
 * conversation is never reached through another browser's cookie.
 */
export class ChatRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The workflow's chat, or null before it was first enabled. @throws NotFoundError for a workflow not in the workspace */
  async ofWorkflow(workspaceId: string, workflowId: string): Promise<StoredChat | null> {
    await assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
    return this.prisma.chat.findFirst({ where: { workflowId, workspaceId }, select: chatFields });
  }

  /**
   * Creates the workflow's chat or changes it. `passwordHash` undefined keeps the stored one, null removes it.
   * @throws NotFoundError for a workflow not in the workspace
   */
  async save(
    workspaceId: string,
    workflowId: string,
    settings: { enabled: boolean; title?: string; passwordHash?: string | null },
  ): Promise<StoredChat> {
    await this.ofWorkflow(workspaceId, workflowId);
    const changes = {
      enabled: settings.enabled,
      ...(settings.title === undefined ? {} : { title: settings.title }),
      ...(settings.passwordHash === undefined ? {} : { passwordHash: settings.passwordHash }),
    };
    return this.prisma.chat.upsert({
      where: { workflowId },
      create: { id: capabilityId(), workspaceId, workflowId, ...changes },
      update: changes,
      select: chatFields,
    });
  }

  /** A chat by its public id, enabled or not; null when there is none. */
  byId(chatId: string): Promise<StoredChat | null> {
    return this.prisma.chat.findUnique({ where: { id: chatId }, select: chatFields });
  }

  /** The visitor's conversation, or null (another visitor's conversation is as absent as an unknown one). */
  conversation(chatId: string, visitorId: string, conversationId: string): Promise<StoredConversation | null> {
    return this.prisma.chatConversation.findFirst({ where: { id: conversationId, chatId, visitorId } });
  }

  /** The visitor's conversations, newest first. */
  async conversations(
    chatId: string,
    visitorId: string,
    page: KeysetPage<TimeAndId>,
  ): Promise<KeysetResult<StoredConversation, TimeAndId>> {
    const rows = await this.prisma.chatConversation.findMany({
      where: { chatId, visitorId, ...afterTimeAndId("createdAt", "id", "desc", page.after) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: page.limit + 1,
    });
    return keysetResult(
      rows,
      page.limit,
      (row) => row,
      (row) => timeAndIdOf(row.createdAt, row.id),
    );
  }

  /** A conversation's messages, oldest first. */
  async messages(
    conversationId: string,
    page: KeysetPage<TimeAndId>,
  ): Promise<KeysetResult<StoredChatMessage, TimeAndId>> {
    const rows = await this.prisma.chatMessage.findMany({
      where: { conversationId, ...afterTimeAndId("createdAt", "id", "asc", page.after) },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: page.limit + 1,
    });
    return keysetResult(rows, page.limit, toMessage, (row) => timeAndIdOf(row.createdAt, row.id));
  }

  /** The newest `limit` messages of a conversation, oldest first: what a run receives as history. */
  async latestMessages(conversationId: string, limit: number): Promise<StoredChatMessage[]> {
    const rows = await this.prisma.chatMessage.findMany({
      where: { conversationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    return rows.reverse().map(toMessage);
  }

  /** The conversation's newest reply: the one a stop button stops. */
  async latestReply(conversationId: string): Promise<StoredChatMessage | null> {
    const row = await this.prisma.chatMessage.findFirst({
      where: { conversationId, role: "assistant" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    return row ? toMessage(row) : null;
  }

  /**
   * Stores a visitor's message and the reply its run will write, in one transaction: the
   * conversation is created when `conversation.create` says so. The reply starts empty, one
   * millisecond after the message, so the two keep their order.
   */
  async addExchange(
    conversation: { id: string; chatId: string; visitorId: string; title: string; create: boolean },
    message: string,
    runId: string,
  ): Promise<{ messageId: string; replyId: string }> {
    const at = new Date();
    return this.prisma.$transaction(async (tx) => {
      if (conversation.create) {
        await tx.chatConversation.create({
          data: {
            id: conversation.id,
            chatId: conversation.chatId,
            visitorId: conversation.visitorId,
            title: conversation.title,
            createdAt: at,
          },
        });
      } else {
        await tx.chatConversation.update({ where: { id: conversation.id }, data: { updatedAt: at } });
      }
      const sent = await tx.chatMessage.create({
        data: { conversationId: conversation.id, role: "user", content: message, createdAt: at },
        select: { id: true },
      });
      const reply = await tx.chatMessage.create({
        data: {
          conversationId: conversation.id,
          role: "assistant",
          content: "",
          runId,
          createdAt: new Date(at.getTime() + 1),
        },
        select: { id: true },
      });
      return { messageId: sent.id, replyId: reply.id };
    });
  }

  /** Writes a reply's text once its run has ended. */
  async writeReply(replyId: string, content: string): Promise<void> {
    await this.prisma.chatMessage.update({ where: { id: replyId }, data: { content } });
  }
}

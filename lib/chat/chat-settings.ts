import "server-only";
import type { ChatSettings, ChatSettingsRequest, NoChatSettings } from "@/contract";
import type { Repositories } from "@/lib/db";
import { hashChatPassword } from "./chat-access";
import type { ChatRepository, StoredChat } from "./chat-repository";

/** The public page of a chat, on the origin the member reached Trellis at. */
export function chatUrl(origin: string, chatId: string): string {
  return `${origin}/chat/${encodeURIComponent(chatId)}`;
}

/**
 * A workflow's chat settings, for its workspace's members (POST and GET /api/workflows/:id/chat).
 * Enabling needs no deployment, but the answer says whether there is one: until then every
 * message would be refused, and the settings panel says so.
 */
export function createChatSettings(chats: ChatRepository, repositories: Pick<Repositories, "deployments">) {
  const view = async (workspaceId: string, chat: StoredChat, origin: string): Promise<ChatSettings> => ({
    chatId: chat.id,
    url: chatUrl(origin, chat.id),
    enabled: chat.enabled,
    title: chat.title,
    hasPassword: chat.passwordHash !== null,
    deployed: (await repositories.deployments.active(workspaceId, chat.workflowId)) !== null,
  });
  return {
    /** @throws NotFoundError for a workflow not in the workspace */
    async get(workspaceId: string, workflowId: string, origin: string): Promise<ChatSettings | NoChatSettings> {
      const chat = await chats.ofWorkflow(workspaceId, workflowId);
      if (chat) return view(workspaceId, chat, origin);
      return {
        chatId: null,
        enabled: false,
        deployed: (await repositories.deployments.active(workspaceId, workflowId)) !== null,
      };
    },
    /** @throws NotFoundError for a workflow not in the workspace */
    async save(
      workspaceId: string,
      workflowId: string,
      request: ChatSettingsRequest,
      origin: string,
    ): Promise<ChatSettings> {
      const passwordHash =
        request.password === undefined
          ? undefined
          : request.password === null
            ? null
            : await hashChatPassword(request.password);
      const chat = await chats.save(workspaceId, workflowId, {
        enabled: request.enabled,
        title: request.title,
        passwordHash,
      });
      return view(workspaceId, chat, origin);
    },
  };
}

export type ChatSettingsService = ReturnType<typeof createChatSettings>;

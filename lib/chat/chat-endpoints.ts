import "server-only";
import {
  askAnswerRequestSchema,
  CHAT_MESSAGE_MAX_BYTES,
  chatAccessRequestSchema,
  chatMessageRequestSchema,
  chatSettingsRequestSchema,
} from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { addressedUrl } from "@/lib/auth";
import { endpoint } from "@/lib/http/endpoint";
import { errorResponse } from "@/lib/http/errors";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import { visitorOf, withCookies } from "./chat-access";
import type { ChatService } from "./chat-service";
import type { ChatSettingsService } from "./chat-settings";

/** A message escaped as JSON text can take up to six bytes a byte (`\u0001`); the exact limit is checked on the text. */
const MAX_MESSAGE_BODY_BYTES = 6 * CHAT_MESSAGE_MAX_BYTES + 1024;

const conversationPages = listPaging("chat-conversations", timeAndIdPosition);
const messagePages = listPaging("chat-messages", timeAndIdPosition);

/** The chat settings of a workflow, for its members (POST and GET /api/workflows/:id/chat). */
export function chatSettingsEndpoints(settings: () => ChatSettingsService, audit: AuditRequest) {
  return {
    get: endpoint("getChatSettings", async (request, { id }, { workspace }) =>
      Response.json(await settings().get(workspace.id, id, addressedUrl(request).origin)),
    ),
    save: endpoint("configureChat", async (request, { id }, member) => {
      const body = await readJsonRequest(request, chatSettingsRequestSchema, {
        subject: "The chat settings",
        maxBytes: 16 * 1024,
      });
      const origin = addressedUrl(request).origin;
      const before = await settings().get(member.workspace.id, id, origin);
      const saved = await settings().save(member.workspace.id, id, body, origin);
      const shown = (chat: { enabled: boolean; title?: string; hasPassword?: boolean }) => ({
        enabled: chat.enabled,
        title: chat.title ?? null,
        hasPassword: chat.hasPassword ?? false,
      });
      await audit(request, member, {
        action: "chat.configure",
        object: { type: "chat", id: saved.chatId, name: saved.title },
        // Whether it has a password and whether this changed it, never the password.
        summary: { before: shown(before), after: shown(saved), passwordChanged: body.password !== undefined },
      });
      return Response.json(saved);
    }),
  };
}

/**
 * The public chat API under /api/chat/:chatId (docs/CONTRACT.md section 9): no credentials. The
 * chat's id is the capability, the visitor cookie says whose conversations are whose, and the
 * access cookie that the chat's password was given. Same-origin like the rest of the API: the
 * chat page is served by Trellis, and its cookies are SameSite=Lax.
 */
export function chatEndpoints(service: () => ChatService) {
  return {
    info: endpoint("getPublicChat", async (request, { chatId }) => {
      const visitor = visitorOf(request);
      return withCookies(Response.json(await service().info(request, chatId, visitor)), visitor.cookies);
    }),
    unlock: endpoint("unlockChat", async (request, { chatId }) => {
      const visitor = visitorOf(request);
      try {
        const { password } = await readJsonRequest(request, chatAccessRequestSchema, {
          subject: "The password",
          maxBytes: 4 * 1024,
        });
        const granted = await service().unlock(request, chatId, visitor, password);
        return withCookies(new Response(null, { status: 204 }), [...visitor.cookies, ...(granted ? [granted] : [])]);
      } catch (error) {
        // A refused guess keeps its visitor id too, so the next guess counts against the same visitor.
        return withCookies(errorResponse(error), visitor.cookies);
      }
    }),
    send: endpoint("sendChatMessage", async (request, { chatId }) => {
      const visitor = visitorOf(request);
      const body = await readJsonRequest(request, chatMessageRequestSchema, {
        subject: "The message",
        maxBytes: MAX_MESSAGE_BODY_BYTES,
      });
      return withCookies(await service().send(request, chatId, visitor, body), visitor.cookies);
    }),
    conversations: endpoint("listChatConversations", async (request, { chatId }) => {
      const visitor = visitorOf(request);
      const page = await service().conversations(request, chatId, visitor, conversationPages.read(request));
      return withCookies(Response.json(conversationPages.answer("conversations", page)), visitor.cookies);
    }),
    messages: endpoint("listChatMessages", async (request, { chatId, conversationId }) => {
      const visitor = visitorOf(request);
      const page = await service().messages(request, chatId, visitor, conversationId, messagePages.read(request));
      return withCookies(Response.json(messagePages.answer("messages", page)), visitor.cookies);
    }),
    answerAsk: endpoint("answerChatAsk", async (request, { chatId, conversationId, spanId }) => {
      const visitor = visitorOf(request);
      const body = await readJsonRequest(request, askAnswerRequestSchema, {
        subject: "The answer",
        maxBytes: 64 * 1024,
      });
      await service().answerAsk(request, chatId, visitor, conversationId, spanId, body);
      return withCookies(Response.json({ spanId, answered: true }, { status: 202 }), visitor.cookies);
    }),
    stop: endpoint("stopChatReply", async (request, { chatId, conversationId }) => {
      const visitor = visitorOf(request);
      const stopped = await service().stop(request, chatId, visitor, conversationId);
      return withCookies(Response.json({ stopped }, { status: 202 }), visitor.cookies);
    }),
  };
}

export type ChatEndpoints = ReturnType<typeof chatEndpoints>;
export type ChatSettingsEndpoints = ReturnType<typeof chatSettingsEndpoints>;

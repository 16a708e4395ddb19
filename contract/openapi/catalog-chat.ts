import { chatAccessRequestSchema, chatMessageRequestSchema, chatSettingsRequestSchema } from "../chat";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import {
  chatConversationPageSchema,
  chatMessagePageSchema,
  chatSettingsSchema,
  chatStoppedSchema,
  noChatSettingsSchema,
  publicChatInfoSchema,
} from "./schemas-chat";

/** A workflow's public chat (docs/CONTRACT.md section 9): lib/chat/chat-endpoints.ts. */

const workflowId = pathParameter("id", "The workflow's id.");
const chatId = pathParameter("chatId", "The chat's id, from its link: the capability to talk to it.");
const conversationId = pathParameter("conversationId", "One of this browser's conversations.");
const VISITOR =
  "No credentials: the `trellis-chat-visitor` cookie (HTTP-only, set on the first answer) says whose conversations are whose, and a chat with a password needs the `trellis-chat-access` cookie that POST /api/chat/{chatId}/access sets. 404 for an unknown or disabled chat; 401 `password_required` until the password was given; 429 `too_many_attempts` (with `Retry-After`) while too many wrong ones make the visitor wait.";

export const CHAT_OPERATIONS = [
  {
    operationId: "getChatSettings",
    method: "GET",
    path: "/api/workflows/{id}/chat",
    tag: "Chat",
    summary: "Read a workflow's public chat settings",
    access: "member",
    role: "viewer",
    parameters: [workflowId],
    answers: [
      { status: 200, description: "The chat's settings and link.", schema: chatSettingsSchema },
      { status: 200, description: "Before the chat was first enabled.", schema: noChatSettingsSchema },
    ],
  },
  {
    operationId: "configureChat",
    method: "POST",
    path: "/api/workflows/{id}/chat",
    tag: "Chat",
    summary: "Turn a workflow's public chat on or off, with a title and an optional password",
    description:
      "`password`: a new one replaces the old (10 to 200 characters), `null` removes it, left out keeps it; it is stored as a scrypt hash. The chat runs the workflow's active deployment.",
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: {
      schema: chatSettingsRequestSchema,
      required: true,
      example: { enabled: true, title: "Ask our support", password: "open sesame, please" },
    },
    answers: [{ status: 200, description: "The chat's settings, with its public `url`.", schema: chatSettingsSchema }],
  },
  {
    operationId: "getPublicChat",
    method: "GET",
    path: "/api/chat/{chatId}",
    tag: "Chat",
    summary: "What a visitor learns about a chat: its title and whether it needs a password",
    description: VISITOR,
    access: "public",
    parameters: [chatId],
    answers: [
      {
        status: 200,
        description: "The chat's title and whether this browser must give its password.",
        schema: publicChatInfoSchema,
      },
    ],
    errors: [404],
  },
  {
    operationId: "unlockChat",
    method: "POST",
    path: "/api/chat/{chatId}/access",
    tag: "Chat",
    summary: "Give a chat's password; the browser is remembered for 30 days",
    access: "public",
    parameters: [chatId],
    request: { schema: chatAccessRequestSchema, required: true, example: { password: "open sesame, please" } },
    answers: [{ status: 204, description: "Right: the `trellis-chat-access` cookie is set." }],
    errors: [401, 404, 429],
  },
  {
    operationId: "sendChatMessage",
    method: "POST",
    path: "/api/chat/{chatId}/messages",
    tag: "Chat",
    summary: "Send a message and read the reply as it is written",
    description: `${VISITOR} The message starts a run of the active deployment (trigger \`chat\`) with the start inputs \`message\` and \`history\` (the conversation's earlier messages, \`[{ role, content }]\`, oldest first). The answer is the run's event stream as the public may see it: \`run.started\` (with the \`conversationId\`), \`block.delta\` of the answering block, then \`run.completed\` with the \`reply\`, \`run.failed\` or \`run.cancelled\`. Costs and tokens only for members of the chat's workspace. 409 \`not_deployed\` before a deployment; 413 for a message over 16 KB.`,
    access: "public",
    parameters: [chatId],
    request: { schema: chatMessageRequestSchema, required: true, example: { message: "Where is my parcel?" } },
    answers: [{ status: 200, description: "The reply's event stream.", contentType: "text/event-stream" }],
    errors: [401, 404, 409],
  },
  {
    operationId: "listChatConversations",
    method: "GET",
    path: "/api/chat/{chatId}/conversations",
    tag: "Chat",
    summary: "List this browser's conversations with a chat, newest first",
    description: VISITOR,
    access: "public",
    parameters: [chatId, ...PAGE_PARAMETERS],
    answers: [{ status: 200, description: "A page of conversations.", schema: chatConversationPageSchema }],
    errors: [401, 404],
  },
  {
    operationId: "listChatMessages",
    method: "GET",
    path: "/api/chat/{chatId}/conversations/{conversationId}/messages",
    tag: "Chat",
    summary: "Read one of this browser's conversations, oldest message first",
    description: `${VISITOR} Another browser's conversation answers 404.`,
    access: "public",
    parameters: [chatId, conversationId, ...PAGE_PARAMETERS],
    answers: [{ status: 200, description: "A page of messages.", schema: chatMessagePageSchema }],
    errors: [401, 404],
  },
  {
    operationId: "stopChatReply",
    method: "POST",
    path: "/api/chat/{chatId}/conversations/{conversationId}/stop",
    tag: "Chat",
    summary: "Stop the reply being written in one of this browser's conversations",
    description: `${VISITOR} The reply's run is cancelled; its stream ends with \`run.cancelled\`.`,
    access: "public",
    parameters: [chatId, conversationId],
    answers: [{ status: 202, description: "Whether a reply was stopped.", schema: chatStoppedSchema }],
    errors: [401, 404],
  },
] as const satisfies readonly ApiOperation[];

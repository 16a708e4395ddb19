import { z } from "zod";
import type { AskPrompt } from "./asks";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";
import { costSchema, tokenCountsSchema, type Cost, type TokenCounts } from "./usage";

/**
 * The public chat of a deployed workflow (docs/CONTRACT.md section 9): its settings for members,
 * and what a visitor of `/chat/:chatId` sends and receives. Visitors see the chat's title, their
 * own conversations and the replies; never costs, tokens, block names or errors' internals.
 */

/** The most a visitor's message may hold, in UTF-8 bytes (413 beyond). */
export const CHAT_MESSAGE_MAX_BYTES = 16 * 1024;
export const CHAT_TITLE_MAX_LENGTH = 200;
/** A chat's password is guessed without an account: at least 10 characters (400 naming `password` below). */
export const CHAT_PASSWORD_MIN_LENGTH = 10;
export const CHAT_PASSWORD_MAX_LENGTH = 200;

/**
 * POST /api/workflows/:id/chat. `password`: a new one replaces the old, `null` removes it, left
 * out keeps what is set. `title` left out keeps the stored one.
 */
export const chatSettingsRequestSchema = z.strictObject({
  enabled: z.boolean({ error: "must be true or false" }),
  title: z.string().trim().max(CHAT_TITLE_MAX_LENGTH, `must be at most ${CHAT_TITLE_MAX_LENGTH} characters`).optional(),
  password: z
    .union([
      z
        .string()
        .min(CHAT_PASSWORD_MIN_LENGTH, `must be at least ${CHAT_PASSWORD_MIN_LENGTH} characters`)
        .max(CHAT_PASSWORD_MAX_LENGTH, `must be at most ${CHAT_PASSWORD_MAX_LENGTH} characters`),
      z.null(),
    ])
    .optional(),
});
export type ChatSettingsRequest = z.input<typeof chatSettingsRequestSchema>;

/** A workflow's chat as its members see it (GET and POST /api/workflows/:id/chat). */
export const chatSettingsSchema = z.object({
  chatId: z.string(),
  url: z.string().describe("The public page: `<origin>/chat/{chatId}`."),
  enabled: z.boolean(),
  title: z.string(),
  hasPassword: z.boolean(),
  deployed: z
    .boolean()
    .describe(
      "Whether the workflow has an active deployment: the chat runs only that, and refuses messages (409) until there is one.",
    ),
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

/** GET /api/workflows/:id/chat before the chat was ever enabled. */
export const noChatSettingsSchema = z.object({ chatId: z.null(), enabled: z.literal(false), deployed: z.boolean() });
export type NoChatSettings = z.infer<typeof noChatSettingsSchema>;

/** GET /api/chat/:chatId: all a visitor learns about a chat before talking to it. */
export const publicChatInfoSchema = z.object({
  chatId: z.string(),
  title: z.string(),
  passwordRequired: z.boolean().describe("The chat has a password and this browser has not given it yet."),
});
export type PublicChatInfo = z.infer<typeof publicChatInfoSchema>;

/** POST /api/chat/:chatId/access: gives the password once; the browser is remembered in a cookie. */
export const chatAccessRequestSchema = z.strictObject({
  password: z
    .string({ error: "is required" })
    .max(CHAT_PASSWORD_MAX_LENGTH, `must be at most ${CHAT_PASSWORD_MAX_LENGTH} characters`),
});
export type ChatAccessRequest = z.infer<typeof chatAccessRequestSchema>;

/** POST /api/chat/:chatId/messages. Without `conversationId` a new conversation begins. */
export const chatMessageRequestSchema = z.strictObject({
  message: z.string({ error: "is required" }).trim().min(1, "is empty"),
  conversationId: z.string().min(1).max(100).optional(),
});
export type ChatMessageRequest = z.input<typeof chatMessageRequestSchema>;

/** One of a visitor's conversations (GET /api/chat/:chatId/conversations), newest first. */
export const chatConversationSchema = z.object({
  id: z.string(),
  title: z.string().describe("The start of its first message."),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type ChatConversationSummary = z.infer<typeof chatConversationSchema>;

export const chatConversationPageSchema = pageSchema("conversations", chatConversationSchema);

const chatRoleSchema = z.enum(["user", "assistant"]);
export type ChatRole = z.infer<typeof chatRoleSchema>;

/**
 * An earlier message of the conversation as the workflow receives it in `<start.history>`:
 * oldest first, the visitor's messages and the workflow's replies, never the message being
 * answered (that is `<start.message>`). The shape an agent's `memories` takes.
 */
export interface ChatHistoryMessage {
  role: ChatRole;
  content: string;
}

/** `pending` while its run goes on; an assistant message that failed or was stopped says so. */
const chatMessageStatusSchema = z.enum(["pending", "complete", "failed", "cancelled"]);
export type ChatMessageStatus = z.infer<typeof chatMessageStatusSchema>;

/** A message of a conversation (GET /api/chat/:chatId/conversations/:conversationId/messages), oldest first. */
export const chatMessageSchema = z.object({
  id: z.string(),
  role: chatRoleSchema,
  content: z.string(),
  status: chatMessageStatusSchema,
  createdAt: timestampSchema,
  cost: costSchema
    .nullable()
    .optional()
    .describe("Members of the chat's workspace only: what the reply's run cost (null: unpriced)."),
  tokens: tokenCountsSchema.optional().describe("Members of the chat's workspace only."),
});
export type ChatMessageView = z.infer<typeof chatMessageSchema>;

export const chatMessagePageSchema = pageSchema("messages", chatMessageSchema);

/** POST /api/chat/:chatId/conversations/:conversationId/stop. */
export const chatStoppedSchema = z.object({ stopped: z.boolean().describe("False when no reply was in progress.") });

/**
 * The events of POST /api/chat/:chatId/messages: the run's stream (section 6) as the public may
 * see it. `run.started` names the conversation (new or continued); `block.delta` carries the text
 * of the block that answers, as it arrives; the stream ends with `run.completed` holding the
 * reply, `run.failed` with a plain message, or `run.cancelled`. `cost` and `tokens` are sent to
 * members of the chat's workspace only.
 */
export type ChatStreamEvent =
  | { type: "run.started"; runId: string; conversationId: string; startedAt: string }
  | { type: "block.delta"; runId: string; spanId: string; text: string }
  | { type: "run.completed"; runId: string; reply: string; cost?: Cost | null; tokens?: TokenCounts }
  | { type: "run.failed"; runId: string; error: { code?: string; message: string } }
  | { type: "run.cancelled"; runId: string }
  /**
   * Extension (issue 17): the reply waits for the visitor's answer to an ask (what it asks, never
   * the block's name); answered through POST .../conversations/:conversationId/asks/:spanId.
   */
  | ({ type: "ask.requested"; runId: string; spanId: string } & AskPrompt)
  | { type: "ask.answered"; runId: string; spanId: string };

export const CHAT_STREAM_EVENT_TYPES = [
  "run.started",
  "block.delta",
  "run.completed",
  "run.failed",
  "run.cancelled",
  "ask.requested",
  "ask.answered",
] as const satisfies ReadonlyArray<ChatStreamEvent["type"]>;

/** What a public visitor is told when a run fails: the workflow's internals stay in the workspace. */
export const CHAT_FAILED_MESSAGE = "Sorry, something went wrong while answering. Please try again.";

import { z } from "zod";
import type { ChatConversationSummary, ChatMessageView, ChatSettings, NoChatSettings, PublicChatInfo } from "../chat";
import type { ListPage } from "../pagination";
import type { SameWireType } from "./same-type";
import { costSchema, pageSchema, timestampSchema, tokenCountsSchema } from "./schemas-common";

/** Answers of the chat endpoints (docs/CONTRACT.md section 9): lib/chat/chat-endpoints.ts. */

export const chatSettingsSchema = z.object({
  chatId: z.string(),
  url: z.string().describe("The public page: `<origin>/chat/{chatId}`."),
  enabled: z.boolean(),
  title: z.string(),
  hasPassword: z.boolean(),
  deployed: z.boolean().describe("Whether the workflow has an active deployment: the chat runs only that, and refuses messages (409) until there is one."),
});

export const noChatSettingsSchema = z.object({ chatId: z.null(), enabled: z.literal(false), deployed: z.boolean() });

export const publicChatInfoSchema = z.object({
  chatId: z.string(),
  title: z.string(),
  passwordRequired: z.boolean().describe("The chat has a password and this browser has not given it yet."),
});

export const chatConversationSchema = z.object({
  id: z.string(),
  title: z.string().describe("The start of its first message."),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const chatConversationPageSchema = pageSchema("conversations", chatConversationSchema);

export const chatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  status: z.enum(["pending", "complete", "failed", "cancelled"]),
  createdAt: timestampSchema,
  cost: costSchema.nullable().optional().describe("Members of the chat's workspace only: what the reply's run cost (null: unpriced)."),
  tokens: tokenCountsSchema.optional().describe("Members of the chat's workspace only."),
});

export const chatMessagePageSchema = pageSchema("messages", chatMessageSchema);

export const chatStoppedSchema = z.object({ stopped: z.boolean().describe("False when no reply was in progress.") });

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof chatSettingsSchema>, ChatSettings>,
  SameWireType<z.output<typeof noChatSettingsSchema>, NoChatSettings>,
  SameWireType<z.output<typeof publicChatInfoSchema>, PublicChatInfo>,
  SameWireType<z.output<typeof chatConversationPageSchema>, ListPage<"conversations", ChatConversationSummary>>,
  SameWireType<z.output<typeof chatMessagePageSchema>, ListPage<"messages", ChatMessageView>>,
] = [true, true, true, true, true];
void matches;

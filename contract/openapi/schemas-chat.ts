/** The schemas of the chat endpoints (docs/CONTRACT.md section 9): each answer's is declared once, with its type, in the contract's own files. */

export {
  chatConversationPageSchema,
  chatConversationSchema,
  chatMessagePageSchema,
  chatMessageSchema,
  chatSettingsSchema,
  chatStoppedSchema,
  noChatSettingsSchema,
  publicChatInfoSchema,
} from "../chat";

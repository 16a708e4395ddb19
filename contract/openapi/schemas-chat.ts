/** The schemas of the chat endpoints (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

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

import type { Metadata } from "next";
import { ChatPage } from "@/components/chat/chat-page";

export const metadata: Metadata = { title: "Chat", robots: { index: false, follow: false } };

/** A workflow's public chat: outside the signed-in app, open to anyone with the link. */
export default async function PublicChatPage({ params }: { params: Promise<{ chatId: string }> }) {
  const { chatId } = await params;
  return <ChatPage chatId={chatId} />;
}

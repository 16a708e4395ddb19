import type { Metadata } from "next";
import { ChatPage } from "@/components/chat/chat-page";
import { chatPageRobots, publicChatIndexable } from "@/lib/chat/search-indexing";

/** Out of search engines unless the operator opts in (TRELLIS_PUBLIC_CHAT_INDEXABLE=1); read per request. */
export function generateMetadata(): Metadata {
  return { title: "Chat", robots: chatPageRobots(publicChatIndexable()) };
}

/** A workflow's public chat: outside the signed-in app, open to anyone with the link. */
export default async function PublicChatPage({ params }: { params: Promise<{ chatId: string }> }) {
  const { chatId } = await params;
  return <ChatPage chatId={chatId} />;
}

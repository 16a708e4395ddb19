import { appChatEndpoints } from "@/lib/chat/app-chat-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const POST = route(appChatEndpoints.answerAsk);

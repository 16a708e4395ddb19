import { appChatSettingsEndpoints } from "@/lib/chat/app-chat-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(appChatSettingsEndpoints.get);
export const POST = route(appChatSettingsEndpoints.save);

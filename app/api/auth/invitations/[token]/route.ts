import { route } from "@/lib/http/route";
import { appInvitationEndpoints } from "@/lib/workspaces/app-workspace-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appInvitationEndpoints.preview);
export const POST = route(appInvitationEndpoints.accept);

import { route } from "@/lib/http/route";
import { appWorkspaceEndpoints } from "@/lib/workspaces/app-workspace-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appWorkspaceEndpoints.members);
export const POST = route(appWorkspaceEndpoints.invite);

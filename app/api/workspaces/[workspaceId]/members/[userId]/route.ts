import { route } from "@/lib/http/route";
import { appWorkspaceEndpoints } from "@/lib/workspaces/app-workspace-endpoints";

export const dynamic = "force-dynamic";

export const PATCH = route(appWorkspaceEndpoints.changeRole);
export const DELETE = route(appWorkspaceEndpoints.removeMember);

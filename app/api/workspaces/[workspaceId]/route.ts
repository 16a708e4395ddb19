import { route } from "@/lib/http/route";
import { appWorkspaceEndpoints } from "@/lib/workspaces/app-workspace-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appWorkspaceEndpoints.get);
export const PATCH = route(appWorkspaceEndpoints.rename);

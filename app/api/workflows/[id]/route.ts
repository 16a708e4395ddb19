import { route } from "@/lib/http/route";
import { appWorkflowEndpoints } from "@/lib/workflows/app-workflow-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appWorkflowEndpoints.get);
export const PUT = route(appWorkflowEndpoints.update);
export const DELETE = route(appWorkflowEndpoints.remove);

import { route } from "@/lib/http/route";
import { appWorkflowEndpoints } from "@/lib/workflows/app-workflow-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appWorkflowEndpoints.list);
export const POST = route(appWorkflowEndpoints.create);

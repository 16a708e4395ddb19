import { route } from "@/lib/http/endpoint";
import { appApprovalEndpoints } from "@/lib/runs/app-approval-endpoints";

export const dynamic = "force-dynamic";

export const POST = route(appApprovalEndpoints.decide);

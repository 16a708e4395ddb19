import { route } from "@/lib/http/route";
import { appApprovalEndpoints } from "@/lib/runs/app-approval-endpoints";

export const dynamic = "force-dynamic";

export const POST = route(appApprovalEndpoints.decide);

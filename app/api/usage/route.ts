import { route } from "@/lib/http/route";
import { appUsageEndpoints } from "@/lib/usage/app-usage-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appUsageEndpoints.report);

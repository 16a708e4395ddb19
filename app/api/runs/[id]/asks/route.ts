import { route } from "@/lib/http/route";
import { appAskEndpoints } from "@/lib/runs/app-ask-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appAskEndpoints.list);

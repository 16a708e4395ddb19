import { route } from "@/lib/http/route";
import { appSystemEndpoints } from "@/lib/system/app-system-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appSystemEndpoints.ready);

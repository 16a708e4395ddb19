import { route } from "@/lib/http/route";
import { appRunEndpoints } from "@/lib/runs/app-run-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appRunEndpoints.listWorkspace);

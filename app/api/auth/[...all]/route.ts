import { route } from "@/lib/http/route";
import { appAuthEndpoints } from "@/lib/auth";

export const dynamic = "force-dynamic";
export const GET = route(appAuthEndpoints.handle);
export const POST = route(appAuthEndpoints.handle);

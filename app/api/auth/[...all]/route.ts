import { route } from "@/lib/http/endpoint";
import { appAuthEndpoints } from "@/lib/auth";

export const dynamic = "force-dynamic";
export const GET = route(appAuthEndpoints.handle);
export const POST = route(appAuthEndpoints.handle);

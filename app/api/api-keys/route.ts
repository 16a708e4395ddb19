import { route } from "@/lib/http/route";
import { appApiKeyEndpoints } from "@/lib/api-keys/app-api-key-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appApiKeyEndpoints.list);
export const POST = route(appApiKeyEndpoints.create);

import { route } from "@/lib/http/route";
import { appApiKeyEndpoints } from "@/lib/api-keys/app-api-key-endpoints";

export const dynamic = "force-dynamic";

export const DELETE = route(appApiKeyEndpoints.revoke);

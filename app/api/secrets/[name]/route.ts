import { route } from "@/lib/http/route";
import { appSecretEndpoints } from "@/lib/secrets/app-secret-endpoints";

export const dynamic = "force-dynamic";

export const PUT = route(appSecretEndpoints.put);
export const DELETE = route(appSecretEndpoints.remove);

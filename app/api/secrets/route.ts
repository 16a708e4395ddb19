import { route } from "@/lib/http/route";
import { appSecretEndpoints } from "@/lib/secrets/app-secret-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appSecretEndpoints.list);

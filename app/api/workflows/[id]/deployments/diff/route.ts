import { appDeploymentEndpoints } from "@/lib/deployments/app-deployment-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(appDeploymentEndpoints.diff);

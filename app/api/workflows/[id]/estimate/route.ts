import { appEstimateEndpoints } from "@/lib/estimates/app-estimate-endpoints";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const POST = route(appEstimateEndpoints.estimate);

import { route } from "@/lib/http/route";
import { appPriceEndpoints } from "@/lib/prices/app-price-endpoints";

export const dynamic = "force-dynamic";

export const PUT = route(appPriceEndpoints.put);
export const DELETE = route(appPriceEndpoints.remove);

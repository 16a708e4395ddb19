import { route } from "@/lib/http/route";
import { appPriceEndpoints } from "@/lib/prices/app-price-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appPriceEndpoints.list);

import "server-only";
import { getRepositories } from "@/lib/db";
import { priceEndpoints } from "./price-endpoints";

/** The price endpoints over the app's database. */
export const appPriceEndpoints = priceEndpoints(() => getRepositories().priceOverrides);

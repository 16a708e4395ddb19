import "server-only";
import { getPrisma } from "@/lib/db";
import { usageEndpoints } from "./usage-endpoints";
import { createUsageService } from "./usage-service";

/** The usage endpoint over the app's database. */
export const appUsageEndpoints = usageEndpoints(() => createUsageService(getPrisma()));

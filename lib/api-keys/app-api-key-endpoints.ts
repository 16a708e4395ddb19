import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma } from "@/lib/db";
import { apiKeyEndpoints } from "./api-key-endpoints";

/** The API key endpoints over the app's database. */
export const appApiKeyEndpoints = apiKeyEndpoints(getPrisma, auditRequestsTo(getPrisma));

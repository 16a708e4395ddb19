import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { secretEndpoints } from "./secret-endpoints";

/** The secret endpoints over the app's database. */
export const appSecretEndpoints = secretEndpoints(() => getRepositories().secrets, auditRequestsTo(getPrisma));

import "server-only";
import { getPrisma } from "@/lib/db";
import { auditEndpoints } from "./audit-endpoints";
import { createAuditRepository } from "./audit-repository";

/** The audit endpoints over the app's database. */
export const appAuditEndpoints = auditEndpoints(() => createAuditRepository(getPrisma()));

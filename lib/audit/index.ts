import "server-only";
/** The audit log (docs/CONTRACT.md section 17): the writer is `@/lib/audit/audit-log`, which lib/auth uses too; reading, export and retention here. */
export { recordAudit } from "./audit-log";
export type { AuditBy, AuditRecord, AuditWriter } from "./audit-log";
export { createAuditRepository, type AuditRepository } from "./audit-repository";
export { auditEndpoints, readAuditFilter } from "./audit-endpoints";
export { appAuditEndpoints } from "./app-audit-endpoints";
export { auditRetentionDays, startAuditRetention, sweepAuditLog } from "./audit-retention";
export { auditByOf, auditByUser, auditRequestsTo, type AuditRequest } from "./audit-by";

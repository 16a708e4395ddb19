/** The schemas of the audit endpoints (docs/CONTRACT.md section 17), gathered for the catalog; each is declared with its type in contract/audit.ts. */

export { auditActorSchema, auditEntrySchema, auditObjectSchema, auditPageSchema } from "../audit";

import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

/*
 * The audit log (docs/CONTRACT.md section 17): who changed what in a workspace, when and from
 * where. Entries are only ever added; GET /api/audit reads them (admins and owners) and
 * GET /api/audit/export writes them out as CSV or JSON lines.
 */

/** Every action an entry may record: `noun.verb`, the object's kind first. */
export const AUDIT_ACTIONS = [
  "signIn.succeeded",
  "signIn.failed",
  "member.invite",
  "member.join",
  "member.role",
  "member.remove",
  "invitation.revoke",
  "session.revoke",
  "sso.configure",
  "apiKey.create",
  "apiKey.revoke",
  "secret.set",
  "secret.delete",
  "workflow.create",
  "workflow.delete",
  "workflow.import",
  "workflow.deploy",
  "workflow.activate",
  "webhook.create",
  "webhook.delete",
  "schedule.create",
  "schedule.update",
  "schedule.delete",
  "chat.configure",
  "mcp.publish",
  "budget.set",
  "price.set",
  "price.delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTOR_KINDS = ["user", "apiKey"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Who acted: a signed-in user, or an API key (acting as the user who made it, `userId`). */
export const auditActorSchema = z.object({
  kind: z.enum(AUDIT_ACTOR_KINDS),
  id: z.string(),
  name: z.string(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

/** What was acted on: its kind (`workflow`, `secret`, `member`...), its id (a secret's is its name) and its name then. */
export const auditObjectSchema = z.object({
  type: z.string(),
  id: z.string(),
  name: z.string().nullable(),
});
export type AuditObject = z.infer<typeof auditObjectSchema>;

/** What changed, as plain facts: `before` and `after` where something had a value before, and facts like a sign-in's `method`. Never a secret value. */
export const auditSummarySchema = z.record(z.string(), z.unknown());
export type AuditSummary = z.infer<typeof auditSummarySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: timestampSchema,
  actor: auditActorSchema,
  action: z.enum(AUDIT_ACTIONS),
  object: auditObjectSchema,
  address: z
    .string()
    .nullable()
    .describe("The client's address as the server saw it (behind trusted proxies: theirs)."),
  summary: auditSummarySchema,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = pageSchema("entries", auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

const moment = z.iso.datetime({
  offset: true,
  error: "must be an ISO date and time with its offset (2025-01-31T09:00:00Z)",
});
const shortText = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters");

/** The filters of GET /api/audit and its export, as a client sends them. */
export const auditFilterFields = z.strictObject({
  actor: shortText.optional().describe("A user's id or an API key's id: only what they did."),
  action: z
    .enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(", ")}` })
    .optional()
    .describe("Only this action."),
  objectType: shortText
    .optional()
    .describe("Only entries about this kind of object (`workflow`, `secret`, `member`...)."),
  objectId: shortText.optional().describe("Only entries about this object (a secret's id is its name)."),
  from: moment.optional().describe("Only entries at or after this moment."),
  to: moment.optional().describe("Only entries before this moment."),
});
export type AuditFilterInput = z.input<typeof auditFilterFields>;

/** The filters resolved: moments as dates, the ones left out undefined; `to` must be after `from`. */
export const auditFilterSchema = auditFilterFields.transform((fields, context) => {
  const from = fields.from === undefined ? undefined : new Date(fields.from);
  const to = fields.to === undefined ? undefined : new Date(fields.to);
  if (from && to && to.getTime() <= from.getTime()) {
    context.issues.push({ code: "custom", path: ["to"], message: "must be after from", input: fields.to });
    return z.NEVER;
  }
  return {
    actor: fields.actor,
    action: fields.action,
    objectType: fields.objectType,
    objectId: fields.objectId,
    from,
    to,
  };
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const AUDIT_EXPORT_FORMATS = ["csv", "jsonl"] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** The most entries one export writes; a longer period is exported in parts (narrow `from` and `to`). */
export const AUDIT_EXPORT_MAX_ENTRIES = 100_000;

/** Days an entry is kept when the operator sets no TRELLIS_AUDIT_RETENTION_DAYS. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;

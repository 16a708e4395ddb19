import {
  AUDIT_ACTIONS,
  AUDIT_EXPORT_FORMATS,
  AUDIT_EXPORT_MAX_ENTRIES,
  AUDIT_RETENTION_DEFAULT_DAYS,
  auditFilterFields,
} from "../audit";
import { z } from "zod";
import { PAGE_PARAMETERS, type ApiOperation, type OperationParameter } from "./operation";
import { auditPageSchema } from "./schemas-audit";

/** The audit log (docs/CONTRACT.md section 17): lib/audit/audit-endpoints.ts. */

const fields = auditFilterFields.shape;

const FILTERS: OperationParameter[] = [
  { name: "actor", in: "query", description: "A user's or an API key's id: only what they did.", schema: fields.actor },
  { name: "action", in: "query", description: `Only this action: ${AUDIT_ACTIONS.join(", ")}.`, schema: fields.action },
  {
    name: "objectType",
    in: "query",
    description: "Only entries about this kind of object (`workflow`, `secret`, `member`, `apiKey`...).",
    schema: fields.objectType,
  },
  {
    name: "objectId",
    in: "query",
    description: "Only entries about this object (a secret's id is its name).",
    schema: fields.objectId,
  },
  { name: "from", in: "query", description: "Only entries at or after this ISO date and time.", schema: fields.from },
  { name: "to", in: "query", description: "Only entries before this ISO date and time.", schema: fields.to },
];

const KEPT = `Entries are kept for TRELLIS_AUDIT_RETENTION_DAYS days (default ${AUDIT_RETENTION_DEFAULT_DAYS}); no operation edits or deletes one. A filter that is not one of these, or a bad value, is refused (400) naming it.`;

export const AUDIT_OPERATIONS = [
  {
    operationId: "listAuditEntries",
    method: "GET",
    path: "/api/audit",
    tag: "Audit",
    summary: "The workspace's audit log, newest first",
    description: `Sign-ins and every change to members, API keys, secrets (names only), workflows, deployments, hooks, schedules, chats, MCP publications, budgets and prices: who (a user, or an API key), when, from which address, on what, and a before/after summary that never holds a secret value. ${KEPT}`,
    access: "member",
    role: "admin",
    parameters: [...FILTERS, ...PAGE_PARAMETERS],
    answers: [{ status: 200, description: "A page of entries.", schema: auditPageSchema }],
  },
  {
    operationId: "exportAuditEntries",
    method: "GET",
    path: "/api/audit/export",
    tag: "Audit",
    summary: "Export the audit log as CSV or JSON lines",
    description: `The entries the filters select, oldest first, at most ${AUDIT_EXPORT_MAX_ENTRIES} (narrow \`from\` and \`to\` for more). CSV has one column per field, the actor and object spread (\`actorKind\`, \`actorId\`...) and the summary as JSON; JSON lines have one entry as GET /api/audit answers it per line. ${KEPT}`,
    access: "member",
    role: "admin",
    parameters: [
      ...FILTERS,
      {
        name: "format",
        in: "query",
        description: `${AUDIT_EXPORT_FORMATS.join(" or ")} (default csv).`,
        schema: z.enum(AUDIT_EXPORT_FORMATS).default("csv"),
      },
    ],
    answers: [
      { status: 200, description: "The entries as a CSV attachment (`format=csv`),", contentType: "text/csv" },
      { status: 200, description: "or as JSON lines (`format=jsonl`).", contentType: "application/x-ndjson" },
    ],
  },
] as const satisfies readonly ApiOperation[];

import "server-only";
import {
  AUDIT_EXPORT_FORMATS,
  AUDIT_EXPORT_MAX_ENTRIES,
  auditFilterFields,
  auditFilterSchema,
  zodIssues,
  type AuditExportFormat,
  type AuditFilter,
} from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { auditExportStream } from "./audit-export";
import type { AuditRepository } from "./audit-repository";

const auditPages = listPaging("audit", timeAndIdPosition);

const FILTER_NAMES = Object.keys(auditFilterFields.shape);

/**
 * The query's filters; 400 `invalid_request` naming each parameter that is unknown, repeated or
 * bad. `also` names the other parameters the endpoint takes (paging, the export's format).
 */
export function readAuditFilter(request: Request, also: readonly string[]): AuditFilter {
  const fields: Record<string, string> = {};
  const problems: Array<{ path: string; message: string }> = [];
  const seen = new Set<string>();
  for (const [name, value] of new URL(request.url).searchParams) {
    if (seen.has(name)) problems.push({ path: name, message: "is given more than once" });
    seen.add(name);
    if (also.includes(name)) continue;
    if (!FILTER_NAMES.includes(name))
      problems.push({
        path: name,
        message: `is not a filter of the audit log; use ${[...FILTER_NAMES, ...also].join(", ")}`,
      });
    // An empty parameter (`?action=`) is the same as leaving it out, as a form sends it.
    else if (value !== "") fields[name] = value;
  }
  const parsed = problems.length === 0 ? auditFilterSchema.safeParse(fields) : undefined;
  if (parsed?.success) return parsed.data;
  const details = parsed ? zodIssues(parsed.error) : problems;
  throw new RequestError("invalid_request", describeIssues("The audit query", details), details);
}

function exportFormatOf(request: Request): AuditExportFormat {
  const format = new URL(request.url).searchParams.get("format") || "csv";
  if ((AUDIT_EXPORT_FORMATS as readonly string[]).includes(format)) return format as AuditExportFormat;
  const details = [{ path: "format", message: `must be one of ${AUDIT_EXPORT_FORMATS.join(", ")}` }];
  throw new RequestError("invalid_request", describeIssues("The audit query", details), details);
}

const MEDIA_TYPES: Record<AuditExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson; charset=utf-8",
};

/** GET /api/audit and its export (docs/CONTRACT.md section 17): admins and owners; nothing here edits or deletes an entry. */
export function auditEndpoints(repository: () => AuditRepository) {
  return {
    list: endpoint("listAuditEntries", async (request, _params, { workspace }) => {
      const filter = readAuditFilter(request, ["limit", "cursor"]);
      return Response.json(
        auditPages.answer("entries", await repository().page(workspace.id, filter, auditPages.read(request))),
      );
    }),
    export: endpoint("exportAuditEntries", async (request, _params, { workspace }) => {
      const filter = readAuditFilter(request, ["format"]);
      const format = exportFormatOf(request);
      const entries = repository().inOrder(workspace.id, filter, AUDIT_EXPORT_MAX_ENTRIES);
      const day = new Date().toISOString().slice(0, 10);
      return new Response(auditExportStream(entries, format), {
        headers: {
          "content-type": MEDIA_TYPES[format],
          "content-disposition": `attachment; filename="audit-${day}.${format}"`,
          "cache-control": "no-store",
        },
      });
    }),
  };
}

export type AuditEndpoints = ReturnType<typeof auditEndpoints>;

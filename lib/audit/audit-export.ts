import "server-only";
import type { AuditEntry, AuditExportFormat } from "@/contract";

/** The audit log written out: CSV (RFC 4180, one column per field) or JSON lines (one entry as the API answers it per line). */

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "actorKind",
  "actorId",
  "actorName",
  "action",
  "objectType",
  "objectId",
  "objectName",
  "address",
  "summary",
] as const;

/**
 * One CSV cell. A text a spreadsheet would read as a formula (starting `=`, `+`, `-`, `@`, tab or
 * carriage return: a workflow's name is anyone's to choose) is written with a leading `'`, as
 * OWASP's CSV injection advice has it, so opening the export runs nothing.
 */
function cell(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(entry: AuditEntry): string {
  const values: Record<(typeof AUDIT_CSV_COLUMNS)[number], string | null> = {
    id: entry.id,
    at: entry.at,
    actorKind: entry.actor.kind,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    objectType: entry.object.type,
    objectId: entry.object.id,
    objectName: entry.object.name,
    address: entry.address,
    summary: JSON.stringify(entry.summary),
  };
  return `${AUDIT_CSV_COLUMNS.map((column) => cell(values[column])).join(",")}\r\n`;
}

/** The export's bytes as a stream, entries read as they are written. */
export function auditExportStream(
  entries: AsyncIterable<AuditEntry>,
  format: AuditExportFormat,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = entries[Symbol.asyncIterator]();
  let headerSent = format !== "csv";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`${AUDIT_CSV_COLUMNS.join(",")}\r\n`));
        return;
      }
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(format === "csv" ? csvRow(next.value) : `${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

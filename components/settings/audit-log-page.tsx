"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState } from "react";
import { api, AUDIT_ACTIONS, roleAtLeast, type AuditEntry, type AuditFilterInput } from "@/contract";
import { useActingWorkspace } from "@/components/auth/workspace-context";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";
import { LoadMoreButton } from "@/components/ui/load-more-button";
import { PageHeader } from "@/components/ui/page-header";
import { dateText, errorText } from "./format";

const COLUMNS: DataColumn[] = [
  { header: "When" },
  { header: "Who" },
  { header: "Action" },
  { header: "Object" },
  { header: "Address" },
  { header: "Details" },
];

/** The form's fields: dates as the date inputs give them (whole UTC days). */
interface Filters {
  actor: string;
  action: string;
  objectType: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { actor: "", action: "", objectType: "", from: "", to: "" };

/** The API's filters: a `to` day counts whole, so it ends at the start of the next day. */
function apiFilter(filters: Filters): AuditFilterInput {
  const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.action ? { action: filters.action as AuditFilterInput["action"] } : {}),
    ...(filters.objectType ? { objectType: filters.objectType.trim() } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00Z` } : {}),
    ...(filters.to ? { to: nextDay(filters.to) } : {}),
  };
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const details = Object.keys(entry.summary).length > 0 ? JSON.stringify(entry.summary) : "";
  return (
    <DataRow data-testid="audit-row" data-action={entry.action}>
      <DataCell className="whitespace-nowrap text-slate-600">{dateText(entry.at)}</DataCell>
      <DataCell>
        <span className="font-medium">{entry.actor.name}</span>
        {entry.actor.kind === "apiKey" && <span className="ml-1 text-xs text-slate-500">(API key)</span>}
      </DataCell>
      <DataCell>
        <code className="font-mono text-xs">{entry.action}</code>
      </DataCell>
      <DataCell>
        <span className="text-slate-500">{entry.object.type}</span> {entry.object.name ?? entry.object.id}
      </DataCell>
      <DataCell className="font-mono text-xs text-slate-600">{entry.address ?? ""}</DataCell>
      <DataCell className="max-w-xs font-mono text-xs break-all text-slate-600">{details}</DataCell>
    </DataRow>
  );
}

/**
 * Settings › Audit log: who signed in and who changed what in the workspace, newest first,
 * filtered by person, action, kind of object and dates, and exported as CSV or JSON lines. Admins
 * and owners only (the API refuses others); nothing here edits or deletes an entry.
 */
export function AuditLogPage() {
  const { workspace } = useActingWorkspace();
  const allowed = roleAtLeast(workspace.role, "admin");
  const [form, setForm] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const filter = apiFilter(applied);
  const members = useQuery({
    queryKey: ["members", workspace.id],
    queryFn: () => api.workspaces.members(workspace.id),
    enabled: allowed,
  });
  const entries = useInfiniteQuery({
    queryKey: ["audit", workspace.id, applied],
    queryFn: ({ pageParam }) => api.audit.page(filter, { cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.entries),
    enabled: allowed,
  });
  const field = (name: keyof Filters) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  if (!allowed)
    return (
      <main className="mx-auto max-w-4xl px-6 py-10">
        <p className="text-sm text-slate-600">
          The audit log is for the workspace&apos;s admins and owners; your role here is {workspace.role}.
        </p>
      </main>
    );

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          Who signed in to <strong>{workspace.name}</strong>, and who changed what: members, API keys, secrets (by name,
          never a value), workflows, deployments, hooks, schedules, chats, MCP tools, budgets and prices. An API
          key&apos;s changes are shown as the key and the person who made it. Entries cannot be edited or deleted; the
          operator sets how long they are kept.
        </p>
      </PageHeader>

      <form
        className="flex flex-wrap items-end gap-3"
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(form);
        }}
      >
        <FormField label="Person" className="min-w-40">
          <select className={FIELD_INPUT_CLASS} {...field("actor")}>
            <option value="">Anyone</option>
            {(members.data?.members ?? []).map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.name} ({member.email})
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Action" className="min-w-40">
          <select className={FIELD_INPUT_CLASS} {...field("action")}>
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Object kind" className="w-36">
          <input className={FIELD_INPUT_CLASS} placeholder="workflow, secret…" {...field("objectType")} />
        </FormField>
        <FormField label="From (UTC day)" className="w-40">
          <input type="date" className={FIELD_INPUT_CLASS} {...field("from")} />
        </FormField>
        <FormField label="To (UTC day, included)" className="w-40">
          <input type="date" className={FIELD_INPUT_CLASS} {...field("to")} />
        </FormField>
        <button type="submit" className="btn-primary">
          Filter
        </button>
        <span className="ml-auto flex gap-2">
          <a
            className="btn-secondary"
            href={api.audit.exportUrl(filter, "csv")}
            download
            data-testid="audit-export-csv"
          >
            <Download size={14} aria-hidden /> CSV
          </a>
          <a
            className="btn-secondary"
            href={api.audit.exportUrl(filter, "jsonl")}
            download
            data-testid="audit-export-jsonl"
          >
            <Download size={14} aria-hidden /> JSON lines
          </a>
        </span>
      </form>

      {entries.isError && (
        <p role="alert" className="text-sm text-red-700">
          Could not load the audit log: {errorText(entries.error)}
        </p>
      )}
      {entries.data === undefined && !entries.isError && <p className="text-sm text-slate-500">Loading…</p>}
      {entries.data?.length === 0 && <p className="text-sm text-slate-500">No entries match.</p>}
      {entries.data && entries.data.length > 0 && (
        <DataTable label="Audit log" columns={COLUMNS}>
          {entries.data.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </DataTable>
      )}
      <LoadMoreButton pages={entries} testId="audit-more" />
    </main>
  );
}

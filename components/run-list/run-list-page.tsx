"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, RUN_STATUSES, RUN_TRIGGER_KINDS } from "@/contract";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { LoadMoreButton } from "@/components/ui/load-more-button";
import { useWorkflowList } from "@/components/workflows/use-workflows";
import { NO_FILTERS, runListHref, toRunPageRequest, type RunListFilters } from "./run-list-filters";
import { RunListRow } from "./run-list-row";

const COLUMNS: DataColumn[] = [
  { header: "Started" },
  { header: "Workflow" },
  { header: "Status" },
  { header: "Trigger" },
  { header: "Duration", align: "right" },
  { header: "Tokens", align: "right" },
  { header: "Cost", align: "right" },
];

/**
 * The Runs page: every run of the workspace's workflows, newest first, a page at a time, filtered
 * by workflow, status and trigger. The filters live in the address, so a filtered list can be
 * linked; the list refreshes while it is open, as runs start and end.
 */
export function RunListPage({ initialFilters }: { initialFilters: RunListFilters }) {
  const [filters, setFilters] = useState(initialFilters);
  const workflows = useWorkflowList();
  const runs = useInfiniteQuery({
    queryKey: ["workspace-runs", filters],
    queryFn: ({ pageParam }) => api.runs.workspacePage({ ...toRunPageRequest(filters), cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.runs),
    refetchInterval: 10_000,
  });

  function change(next: Partial<RunListFilters>) {
    const updated = { ...filters, ...next };
    setFilters(updated);
    // The address follows without a server round trip (Next.js keeps useSearchParams in step with it).
    window.history.replaceState(null, "", runListHref(updated));
  }
  const filtered = filters.workflow !== "" || filters.status !== "" || filters.trigger !== "";

  return (
    <main className="mx-auto max-w-6xl space-y-4 px-6 py-8">
      <div className="flex flex-wrap items-end gap-3 text-sm" role="group" aria-label="Filter runs">
        <FilterSelect
          label="Workflow"
          value={filters.workflow}
          anyLabel="All workflows"
          options={(workflows.data ?? []).map((workflow) => ({ value: workflow.id, label: workflow.name }))}
          onChange={(workflow) => change({ workflow })}
          testId="runs-filter-workflow"
        />
        <FilterSelect
          label="Status"
          value={filters.status}
          anyLabel="Any status"
          options={RUN_STATUSES.map((status) => ({ value: status, label: status }))}
          onChange={(status) => change({ status: status as RunListFilters["status"] })}
          testId="runs-filter-status"
        />
        <FilterSelect
          label="Trigger"
          value={filters.trigger}
          anyLabel="Any trigger"
          options={RUN_TRIGGER_KINDS.map((kind) => ({ value: kind, label: kind }))}
          onChange={(trigger) => change({ trigger: trigger as RunListFilters["trigger"] })}
          testId="runs-filter-trigger"
        />
        {filtered && (
          <button type="button" className="btn-secondary" onClick={() => change(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>

      {runs.isPending && <p className="text-slate-500">Loading runs…</p>}
      {runs.isError && (
        <p role="alert" className="text-red-700">
          Could not load runs: {runs.error.message}
        </p>
      )}
      {runs.data?.length === 0 && (
        <p
          className="rounded border border-dashed border-slate-300 px-6 py-10 text-center text-slate-500"
          data-testid="runs-empty"
        >
          {filtered
            ? "No runs match these filters."
            : "No runs yet. A run appears here when a workflow runs from the editor, the API, a webhook, a schedule or a chat."}
        </p>
      )}
      {runs.data && runs.data.length > 0 && (
        <div className="overflow-x-auto rounded border border-slate-200 bg-white">
          <DataTable label="Runs" columns={COLUMNS} variant="plain">
            {runs.data.map((run) => (
              <RunListRow key={run.id} run={run} />
            ))}
          </DataTable>
        </div>
      )}
      <LoadMoreButton pages={runs} label="Load older runs" testId="runs-load-more" />
    </main>
  );
}

/** One filter: a labelled select whose empty value means "any". */
function FilterSelect(props: {
  label: string;
  value: string;
  anyLabel: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-slate-600">
      {props.label}
      <select
        className="input py-1 text-sm"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        data-testid={props.testId}
      >
        <option value="">{props.anyLabel}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

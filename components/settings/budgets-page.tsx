"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  api,
  budgetAmountSchema,
  roleAtLeast,
  type BudgetsResponse,
  type MonthlyBudget,
  type PutBudgetsRequest,
} from "@/contract";
import { useWorkspace } from "@/components/auth/workspace-context";
import { DataCell, DataRow, DataTable } from "@/components/ui/data-table";
import { formatDollars } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { errorText } from "./format";
import { QueryState } from "./query-state";

const budgetsKey = ["budgets"] as const;

/** What the cap field holds: blank (no cap) or an amount; a reason when it is neither. */
function readCap(text: string): { value: number | null } | { problem: string } {
  if (text.trim() === "") return { value: null };
  const number = Number(text);
  const parsed = budgetAmountSchema.safeParse(Number.isNaN(number) ? text : number);
  return parsed.success
    ? { value: parsed.data }
    : { problem: `The cap ${parsed.error.issues[0]?.message ?? "is not valid"}` };
}

function Spent({ budget }: { budget: MonthlyBudget }) {
  const share = budget.monthlyCap ? Math.min(1, budget.spentThisMonth / budget.monthlyCap) : 0;
  return (
    <span className="flex items-center gap-2">
      <span>
        {formatDollars(budget.spentThisMonth)}
        {budget.monthlyCap !== null ? ` of ${formatDollars(budget.monthlyCap)}` : ""}
      </span>
      {budget.monthlyCap !== null && (
        <span className="relative h-1.5 w-20 overflow-hidden rounded bg-slate-200" aria-hidden>
          <span
            className={`absolute inset-y-0 left-0 ${share >= 0.9 ? "bg-red-500" : "bg-emerald-500"}`}
            style={{ width: `${share * 100}%` }}
          />
        </span>
      )}
    </span>
  );
}

/** One cap: its field and a Save button (owners and admins), or the cap as text. */
function CapRow({
  label,
  budget,
  canEdit,
  onSave,
}: {
  label: string;
  budget: MonthlyBudget;
  canEdit: boolean;
  onSave(value: number | null): Promise<void>;
}) {
  const [draft, setDraft] = useState(budget.monthlyCap === null ? "" : String(budget.monthlyCap));
  const read = readCap(draft);
  return (
    <DataRow data-testid="budget-row">
      <DataCell className="font-medium">{label}</DataCell>
      <DataCell className="text-slate-600">
        <Spent budget={budget} />
      </DataCell>
      <DataCell>
        {canEdit ? (
          <form
            className="flex items-start gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if ("value" in read) void onSave(read.value);
            }}
          >
            <span className="flex flex-col">
              <input
                className="w-28 rounded border border-slate-300 px-2 py-1 text-sm"
                inputMode="decimal"
                placeholder="No cap"
                aria-label={`Monthly cap of ${label} (US dollars)`}
                aria-invalid={"problem" in read}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
              />
              {"problem" in read && (
                <span className="text-xs text-red-700" role="alert">
                  {read.problem}
                </span>
              )}
            </span>
            <button type="submit" className="btn-secondary" disabled={"problem" in read}>
              Save
            </button>
          </form>
        ) : budget.monthlyCap === null ? (
          "No cap"
        ) : (
          formatDollars(budget.monthlyCap)
        )}
      </DataCell>
    </DataRow>
  );
}

/** Settings › Budgets: monthly caps in US dollars for the workspace and for each API key, with this month's spending. */
export function BudgetsPage() {
  const queryClient = useQueryClient();
  const budgets = useQuery({ queryKey: budgetsKey, queryFn: api.budgets.get });
  const save = useMutation({
    mutationFn: api.budgets.put,
    onSuccess: (data) => queryClient.setQueryData(budgetsKey, data),
  });
  const [error, setError] = useState<string | null>(null);
  const acting = useWorkspace();
  const canEdit = acting !== null && roleAtLeast(acting.workspace.role, "admin");

  async function put(request: PutBudgetsRequest) {
    setError(null);
    try {
      await save.mutateAsync(request);
    } catch (failure) {
      setError(`Could not save the cap: ${errorText(failure)}`);
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          Monthly caps in US dollars, counted per calendar month (UTC). Before each model call the worst case is checked
          against what is left: a call that could go past a cap is not made, and its run fails with{" "}
          <code>budget_exceeded</code>. A workflow&apos;s own cap per run is in its settings (select nothing on the
          canvas). Runs still in progress count once they end or pause.
        </p>
      </PageHeader>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <QueryState query={budgets} what="the budgets">
        {(data: BudgetsResponse) => (
          <DataTable
            label="Monthly caps"
            columns={[{ header: "Who" }, { header: `Spent in ${data.month}` }, { header: "Monthly cap" }]}
          >
            <CapRow
              key={`workspace-${data.workspace.monthlyCap}`}
              label={acting ? `Workspace ${acting.workspace.name}` : "The workspace"}
              budget={data.workspace}
              canEdit={canEdit}
              onSave={(value) => put({ workspace: { monthlyCap: value } })}
            />
            {data.apiKeys.map((key) => (
              <CapRow
                key={`${key.id}-${key.monthlyCap}`}
                label={`API key ${key.name} (${key.prefix}…)`}
                budget={key}
                canEdit={canEdit}
                onSave={(value) => put({ apiKeys: { [key.id]: value } })}
              />
            ))}
          </DataTable>
        )}
      </QueryState>
    </main>
  );
}

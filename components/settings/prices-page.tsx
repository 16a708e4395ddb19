"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { api, roleAtLeast, type PriceOverride, type PutPriceOverrideRequest } from "@/contract";
import { useActingWorkspace } from "@/components/auth/workspace-context";
import { MODEL_LIST_KEY, useModelList } from "@/components/prices/use-model-list";
import { catalogText, ratesText } from "@/components/prices/price-text";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { dateText, errorText } from "./format";
import { PriceOverrideForm } from "./price-override-form";
import { QueryState } from "./query-state";

const COLUMNS: DataColumn[] = [
  { header: "Model" },
  { header: "Price" },
  { header: "Note" },
  { header: "Updated" },
  { header: "Actions", hidden: true },
];

function OverrideTable({
  overrides,
  editable,
  onEdit,
  onDelete,
}: {
  overrides: PriceOverride[];
  editable: boolean;
  onEdit(override: PriceOverride): void;
  onDelete(model: string): void;
}) {
  return (
    <DataTable label="Price overrides" columns={COLUMNS}>
      {overrides.map((override) => (
        <DataRow key={override.model} data-testid="price-row" data-model={override.model}>
          <DataCell>
            <code className="font-mono text-xs font-medium">{override.model}</code>
          </DataCell>
          <DataCell className="text-slate-700" data-testid="price-rates">
            {ratesText(override.prices)}
          </DataCell>
          <DataCell className="text-slate-600">{override.note}</DataCell>
          <DataCell className="text-slate-600">{dateText(override.updatedAt)}</DataCell>
          <DataCell className="space-x-2 text-right whitespace-nowrap">
            {editable && (
              <>
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Edit the price of ${override.model}`}
                  onClick={() => onEdit(override)}
                >
                  <Pencil size={14} aria-hidden /> Edit
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Delete the price of ${override.model}`}
                  onClick={() => onDelete(override.model)}
                >
                  <Trash2 size={14} aria-hidden /> Delete
                </button>
              </>
            )}
          </DataCell>
        </DataRow>
      ))}
    </DataTable>
  );
}

/**
 * Settings › Prices: the workspace's own prices per million tokens (negotiated rates, a local
 * model's cost), charged before the server's price file and the catalog. Admins and owners change
 * them; every member sees them.
 */
export function PricesPage() {
  const { workspace } = useActingWorkspace();
  const editable = roleAtLeast(workspace.role, "admin");
  const queryClient = useQueryClient();
  const pricesKey = ["prices", workspace.id];
  const overrides = useQuery({ queryKey: pricesKey, queryFn: api.prices.list });
  const models = useModelList();
  const [chosen, setChosen] = useState<PriceOverride | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const refetch = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: pricesKey }),
      queryClient.invalidateQueries({ queryKey: MODEL_LIST_KEY }),
    ]);

  async function save(model: string, prices: PutPriceOverrideRequest): Promise<boolean> {
    setError(null);
    setSaved(null);
    try {
      await api.prices.put(model, prices);
      setSaved(`Saved the price of ${model}. Runs use it from the next one on.`);
      return true;
    } catch (caught) {
      setError(`Could not save the price of ${model || "the model"}: ${errorText(caught)}`);
      return false;
    } finally {
      void refetch();
    }
  }

  async function remove(model: string) {
    if (
      !window.confirm(
        `Delete this workspace's price of ${model}? Runs are priced by the server's price file or the catalog again.`,
      )
    )
      return;
    setError(null);
    setSaved(null);
    try {
      await api.prices.remove(model);
    } catch (caught) {
      setError(`Could not delete the price of ${model}: ${errorText(caught)}`);
    } finally {
      void refetch();
    }
  }

  return (
    <main className="mx-auto max-w-5xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          What <strong>{workspace.name}</strong> pays per million tokens, where it differs from the catalog: a
          negotiated rate, or what a local model costs you. A run is charged at these first, then at the server&apos;s
          price file, then at the catalog; its trace marks each call priced here.
        </p>
        <p data-testid="prices-catalog">{models.data ? `${catalogText(models.data.catalog)}.` : ""}</p>
        {!editable && <p>Your role here ({workspace.role}) shows the prices; admins and owners change them.</p>}
      </PageHeader>

      {editable && <PriceOverrideForm models={models.data?.models ?? []} chosen={chosen} onSave={save} />}
      {saved && (
        <p role="status" className="text-sm text-emerald-700" data-testid="price-saved">
          {saved}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="price-error">
          {error}
        </p>
      )}

      <QueryState
        query={overrides}
        what="the prices"
        isEmpty={(list) => list.length === 0}
        empty="No prices of this workspace's own: the catalog's apply."
      >
        {(list) => (
          <OverrideTable
            overrides={list}
            editable={editable}
            onEdit={(override) => setChosen({ ...override })}
            onDelete={(model) => void remove(model)}
          />
        )}
      </QueryState>
    </main>
  );
}

import "server-only";
import type { RunRecord } from "@/contract";
import type { SpendCap } from "@/executor";
import type { BudgetRepository } from "@/lib/db";

/**
 * The caps one attempt at a run is held to: its own (the lower of the workflow's and the
 * request's, fixed when it was started), and for a top-level run the workspace's monthly cap and
 * the monthly cap of the API key that started it. Each cap starts from what was spent against it
 * before: earlier attempts at this run (it went on after a pause or a crash) and, for the monthly
 * caps, the month's other runs as stored. Runs in progress elsewhere count once they end or pause.
 */
export async function runSpendCaps(
  budgets: BudgetRepository,
  run: RunRecord,
  workspaceId: string,
  options: { resumed: boolean; child: boolean },
): Promise<SpendCap[]> {
  const earlier = options.resumed ? await budgets.spentByRun(run.id) : 0;
  const caps: SpendCap[] = run.budget
    ? [{ maxCost: run.budget.maxCost, source: run.budget.source, spentBefore: earlier }]
    : [];
  // A run started by another is held to its caller's caps through the caller's ledger.
  if (options.child) return caps;
  const stored = await budgets.caps(workspaceId);
  const workspaceCap = stored.find((cap) => cap.scope === "workspace");
  if (workspaceCap) {
    const spent = await budgets.spentThisMonth(workspaceId, { exceptRunId: run.id });
    caps.push({ maxCost: workspaceCap.monthlyCap, source: "workspace-monthly", spentBefore: spent + earlier });
  }
  const apiKeyId = run.trigger.apiKeyId;
  const keyCap =
    apiKeyId === undefined ? undefined : stored.find((cap) => cap.scope === "api-key" && cap.scopeId === apiKeyId);
  if (keyCap) {
    const spent = await budgets.spentThisMonth(workspaceId, { apiKeyId, exceptRunId: run.id });
    caps.push({ maxCost: keyCap.monthlyCap, source: "api-key-monthly", spentBefore: spent + earlier });
  }
  return caps;
}

import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * Monthly caps (the budget_caps table) and what has been spent against them. Spending is read
 * from the runs table, summed by PostgreSQL on its NUMERIC dollar columns: top-level runs only
 * (a run started by another is already in its caller's totals), by when each run was asked for.
 */

export type CapScope = "workspace" | "api-key";

export interface StoredCap {
  scope: CapScope;
  /** The workspace's id for `workspace`, the key's id for `api-key`. */
  scopeId: string;
  monthlyCap: number;
}

/** The first instant of the calendar month (UTC) `at` falls in. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export class BudgetRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async caps(workspaceId: string): Promise<StoredCap[]> {
    const rows = await this.prisma.budgetCap.findMany({
      where: { workspaceId },
      orderBy: [{ scope: "asc" }, { scopeId: "asc" }],
    });
    return rows.map((row) => ({
      scope: row.scope as CapScope,
      scopeId: row.scopeId,
      monthlyCap: Number(row.monthlyCap),
    }));
  }

  /** Sets (a number) or removes (null) each cap given, in one transaction. */
  async setCaps(
    workspaceId: string,
    changes: Array<{ scope: CapScope; scopeId: string; monthlyCap: number | null }>,
  ): Promise<void> {
    await this.prisma.$transaction(
      changes.map(({ scope, scopeId, monthlyCap }) => {
        const key = { workspaceId_scope_scopeId: { workspaceId, scope, scopeId } };
        return monthlyCap === null
          ? this.prisma.budgetCap.deleteMany({ where: { workspaceId, scope, scopeId } })
          : this.prisma.budgetCap.upsert({
              where: key,
              create: { workspaceId, scope, scopeId, monthlyCap },
              update: { monthlyCap },
            });
      }),
    );
  }

  /**
   * Dollars spent by the workspace's top-level runs this calendar month (UTC), all of them or only
   * those started with one API key, leaving out one run (the one asking, counted by its own ledger).
   */
  async spentThisMonth(
    workspaceId: string,
    options: { apiKeyId?: string; exceptRunId?: string; at?: Date } = {},
  ): Promise<number> {
    const values: unknown[] = [workspaceId, monthStart(options.at ?? new Date()).toISOString()];
    const conditions = ["workspace_id = $1", "queued_at >= $2::timestamptz", "parent_run_id IS NULL"];
    if (options.apiKeyId !== undefined) conditions.push(`api_key_id = $${values.push(options.apiKeyId)}`);
    if (options.exceptRunId !== undefined) conditions.push(`id <> $${values.push(options.exceptRunId)}`);
    const [row] = await this.prisma.$queryRawUnsafe<Array<{ spent: string }>>(
      `SELECT COALESCE(sum(cost_total), 0)::text AS spent FROM runs WHERE ${conditions.join(" AND ")}`,
      ...values,
    );
    return Number(row?.spent ?? 0);
  }

  /** Spent per API key this month (UTC), for the keys that spent anything. */
  async spentThisMonthByApiKey(workspaceId: string, at: Date = new Date()): Promise<Map<string, number>> {
    const rows = await this.prisma.$queryRawUnsafe<Array<{ key: string; spent: string }>>(
      `SELECT api_key_id AS key, COALESCE(sum(cost_total), 0)::text AS spent FROM runs
       WHERE workspace_id = $1 AND queued_at >= $2::timestamptz AND parent_run_id IS NULL AND api_key_id IS NOT NULL GROUP BY 1`,
      workspaceId,
      monthStart(at).toISOString(),
    );
    return new Map(rows.map((row) => [row.key, Number(row.spent)]));
  }

  /**
   * What earlier attempts at a run spent on model calls (its own and those of the runs it started),
   * from their stored spans: a run that goes on after a pause or a crash starts its ledger there.
   */
  async spentByRun(runId: string): Promise<number> {
    const [row] = await this.prisma.$queryRawUnsafe<Array<{ spent: string }>>(
      `WITH RECURSIVE tree(id) AS (SELECT $1::text UNION ALL SELECT r.id FROM runs r JOIN tree t ON r.parent_run_id = t.id)
       SELECT COALESCE(sum(s.cost_total), 0)::text AS spent FROM spans s JOIN tree ON s.run_id = tree.id WHERE s.kind = 'model'`,
      runId,
    );
    return Number(row?.spent ?? 0);
  }
}

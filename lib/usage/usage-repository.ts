import "server-only";
import type { UsageGroupBy, UsageQuery } from "@/contract";
import type { PrismaClient } from "@/lib/db";

/**
 * Usage sums over a period, straight from the runs and spans tables. The sums are made by
 * PostgreSQL on the NUMERIC(20,10) dollar columns and read back as text, so a group's dollars are
 * the exact sum of its runs' dollars (JavaScript adds nothing up). Every query takes the workspace
 * first: there is no way to ask for usage without one.
 *
 * A run started by another run (a workflow called as an agent's tool) is not counted on its own:
 * its caller's totals already hold what it spent. Its model calls are, by model, under the run
 * that called it.
 */

/** One group's sums as PostgreSQL answers them (text: NUMERIC and BIGINT kept exact). */
export interface UsageSums {
  key: string | null;
  /** By API key, on runs without one: how they started. */
  trigger: string | null;
  runs: number;
  /** Of `runs`, the test runs. */
  testRuns: number;
  promptTokens: string;
  completionTokens: string;
  totalTokens: string;
  cachedPromptTokens: string | null;
  cacheWriteTokens: string | null;
  reasoningTokens: string | null;
  /** Sums of the priced parts only (0 when none is). */
  costInput: string;
  costOutput: string;
  costTotal: string;
  /** Some part in the group has no known price. */
  unpriced: boolean;
  estimated: boolean;
}

export type UsageFilters = Omit<UsageQuery, "groupBy">;

/** The key of each run-based grouping, as SQL over `runs r` (fixed text: never built from a request). */
const RUN_KEYS: Record<Exclude<UsageGroupBy, "model">, { key: string; trigger: string }> = {
  apiKey: { key: "r.api_key_id", trigger: "CASE WHEN r.api_key_id IS NULL THEN r.trigger_kind END" },
  workflow: { key: "r.workflow_id", trigger: "NULL::text" },
  trigger: { key: "r.trigger_kind", trigger: "NULL::text" },
  day: { key: `to_char(r.queued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`, trigger: "NULL::text" },
};

/** The sums over rows of `alias` (runs or spans: the same usage columns), priced parts apart. */
function sumsOver(alias: string, unpricedWhen: string): string {
  return `COALESCE(sum(${alias}.prompt_tokens), 0)::text AS "promptTokens",
    COALESCE(sum(${alias}.completion_tokens), 0)::text AS "completionTokens",
    COALESCE(sum(${alias}.total_tokens), 0)::text AS "totalTokens",
    sum(${alias}.cached_prompt_tokens)::text AS "cachedPromptTokens",
    sum(${alias}.cache_write_tokens)::text AS "cacheWriteTokens",
    sum(${alias}.reasoning_tokens)::text AS "reasoningTokens",
    COALESCE(sum(${alias}.cost_input), 0)::text AS "costInput",
    COALESCE(sum(${alias}.cost_output), 0)::text AS "costOutput",
    COALESCE(sum(${alias}.cost_total), 0)::text AS "costTotal",
    COALESCE(bool_or(${unpricedWhen}), false) AS unpriced,
    COALESCE(bool_or(${alias}.estimated), false) AS estimated`;
}

/** A run has no known price when it says so, or when its dollars are missing. */
const RUN_UNPRICED = "r.unpriced OR r.cost_total IS NULL";
/** A span has no known price when it says so, or when it reported tokens but no dollars. */
const SPAN_UNPRICED = "s.unpriced OR s.cost_total IS NULL";

/** WHERE over `runs r`: the workspace, the period by when each run was asked for, the filters; top-level runs only. Values go in `values`. */
function runScope(workspaceId: string, filters: UsageFilters, values: unknown[]): string {
  values.push(workspaceId, filters.from.toISOString(), filters.to.toISOString());
  const conditions = [
    "r.workspace_id = $1",
    "r.queued_at >= $2::timestamptz",
    "r.queued_at < $3::timestamptz",
    "r.parent_run_id IS NULL",
  ];
  if (filters.workflowId !== undefined) conditions.push(`r.workflow_id = $${values.push(filters.workflowId)}`);
  if (filters.apiKeyId !== undefined) conditions.push(`r.api_key_id = $${values.push(filters.apiKeyId)}`);
  if (filters.trigger !== undefined) conditions.push(`r.trigger_kind = $${values.push(filters.trigger)}`);
  // An evaluation's runs measure a version, they are not the workflow's traffic: left out unless asked for.
  else if (!filters.includeEvaluations) conditions.push("r.trigger_kind <> 'evaluation'");
  return conditions.join(" AND ");
}

export class UsageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The sums per group of runs (every grouping but `model`). */
  async byRuns(
    workspaceId: string,
    groupBy: Exclude<UsageGroupBy, "model">,
    filters: UsageFilters,
  ): Promise<UsageSums[]> {
    const values: unknown[] = [];
    const { key, trigger } = RUN_KEYS[groupBy];
    const rows = await this.prisma.$queryRawUnsafe<UsageSums[]>(
      `SELECT ${key} AS key, ${trigger} AS trigger, count(*)::int AS runs, count(*) FILTER (WHERE r.test)::int AS "testRuns", ${sumsOver("r", RUN_UNPRICED)}
       FROM runs r WHERE ${runScope(workspaceId, filters, values)}
       GROUP BY 1, 2`,
      ...values,
    );
    return rows.map(withNumbers);
  }

  /** The whole period's sums, with the same filters. */
  async totals(workspaceId: string, filters: UsageFilters): Promise<UsageSums> {
    const values: unknown[] = [];
    const [row] = await this.prisma.$queryRawUnsafe<UsageSums[]>(
      `SELECT NULL::text AS key, NULL::text AS trigger, count(*)::int AS runs, count(*) FILTER (WHERE r.test)::int AS "testRuns", ${sumsOver("r", RUN_UNPRICED)}
       FROM runs r WHERE ${runScope(workspaceId, filters, values)}`,
      ...values,
    );
    return withNumbers(row!);
  }

  /**
   * The sums per model, from the model calls (spans of kind `model`) of the runs in the period and
   * of the runs they started as tools, each counted under the top-level run. A knowledge block's
   * embeddings (a block span with usage and no model call of its own) go under the key null.
   * `runs` counts the distinct top-level runs that used the model.
   */
  async byModel(workspaceId: string, filters: UsageFilters): Promise<UsageSums[]> {
    const values: unknown[] = [];
    const scope = runScope(workspaceId, filters, values);
    // A run called as a tool is stored after its caller, so it is found from `from` on, on the (workspace, queued_at) index.
    const rows = await this.prisma.$queryRawUnsafe<UsageSums[]>(
      `WITH RECURSIVE scoped(id, root_id, root_test) AS (
         SELECT r.id, r.id, r.test FROM runs r WHERE ${scope}
         UNION ALL
         SELECT c.id, p.root_id, p.root_test FROM runs c JOIN scoped p ON c.parent_run_id = p.id
         WHERE c.workspace_id = $1 AND c.queued_at >= $2::timestamptz
       )
       SELECT CASE WHEN s.kind = 'model' THEN s.model END AS key, NULL::text AS trigger, count(DISTINCT scoped.root_id)::int AS runs,
         count(DISTINCT scoped.root_id) FILTER (WHERE scoped.root_test)::int AS "testRuns",
         ${sumsOver("s", SPAN_UNPRICED)}
       FROM spans s JOIN scoped ON s.run_id = scoped.id
       WHERE s.total_tokens IS NOT NULL AND (s.kind = 'model' OR (s.kind = 'block' AND s.block_type = 'knowledge'))
       GROUP BY 1`,
      ...values,
    );
    return rows.map(withNumbers);
  }

  /** Names and prefixes of the workspace's API keys among `ids` (never the key or its hash). */
  async apiKeyLabels(
    workspaceId: string,
    ids: string[],
  ): Promise<Map<string, { name: string; prefix: string; revoked: boolean }>> {
    if (ids.length === 0) return new Map();
    const keys = await this.prisma.apiKey.findMany({
      where: { workspaceId, id: { in: ids } },
      select: { id: true, name: true, prefix: true, revokedAt: true },
    });
    return new Map(
      keys.map((key) => [key.id, { name: key.name, prefix: key.prefix, revoked: key.revokedAt !== null }]),
    );
  }

  /** Names of the workspace's workflows among `ids`. */
  async workflowNames(workspaceId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const workflows = await this.prisma.workflow.findMany({
      where: { workspaceId, id: { in: ids } },
      select: { id: true, name: true },
    });
    return new Map(workflows.map((workflow) => [workflow.id, workflow.name]));
  }
}

/** `runs` as a number whatever the driver makes of an int (PGlite and pg agree, but a bigint would not be JSON). */
function withNumbers(row: UsageSums): UsageSums {
  return { ...row, runs: Number(row.runs), testRuns: Number(row.testRuns) };
}

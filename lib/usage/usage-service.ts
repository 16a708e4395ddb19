import "server-only";
import {
  isRunTriggerKind,
  type RunTriggerKind,
  type TokenCounts,
  type UsageFiguresWithRuns,
  type UsageQuery,
  type UsageReport,
  type UsageRow,
} from "@/contract";
import type { PrismaClient } from "@/lib/db";
import { UsageRepository, type UsageSums } from "./usage-repository";

/** How each trigger reads in a label. */
export const TRIGGER_LABELS: Record<RunTriggerKind, string> = {
  editor: "Editor (signed-in users)",
  api: "API",
  webhook: "Webhook",
  schedule: "Schedule",
  chat: "Chat",
  tool: "Called as a tool",
  replay: "Replay",
  mcp: "MCP tool call",
  evaluation: "Evaluation",
  copilot: "Copilot (editing help)",
};

/** The key null, by model: what knowledge blocks spent embedding their queries. */
export const EMBEDDINGS_LABEL = "Knowledge search (embeddings)";

function tokensOf(sums: UsageSums): TokenCounts {
  const tokens: TokenCounts = {
    prompt: Number(sums.promptTokens),
    completion: Number(sums.completionTokens),
    total: Number(sums.totalTokens),
  };
  if (sums.cachedPromptTokens !== null) tokens.cachedPrompt = Number(sums.cachedPromptTokens);
  if (sums.cacheWriteTokens !== null) tokens.cacheWrite = Number(sums.cacheWriteTokens);
  if (sums.reasoningTokens !== null) tokens.reasoning = Number(sums.reasoningTokens);
  return tokens;
}

/** Sums as the API shows them: `cost` null (and `unpriced`) when any part has no price, the priced part always. */
export function figuresOf(sums: UsageSums): UsageFiguresWithRuns {
  const pricedCost = { input: Number(sums.costInput), output: Number(sums.costOutput), total: Number(sums.costTotal) };
  return {
    runs: sums.runs,
    testRuns: sums.testRuns,
    tokens: tokensOf(sums),
    cost: sums.unpriced ? null : pricedCost,
    unpriced: sums.unpriced,
    estimated: sums.estimated,
    pricedCost,
  };
}

function keyLabel(key: { name: string; prefix: string; revoked: boolean } | undefined, id: string): string {
  if (!key) return `Deleted key (${id})`;
  return `${key.name} (${key.prefix}…)${key.revoked ? ", revoked" : ""}`;
}

/** Most expensive first, then by label; by day, oldest first. */
function ordered(rows: UsageRow[], query: UsageQuery): UsageRow[] {
  if (query.groupBy === "day") return rows.sort((a, b) => (a.key ?? "").localeCompare(b.key ?? ""));
  return rows.sort(
    (a, b) => b.pricedCost.total - a.pricedCost.total || b.runs - a.runs || a.label.localeCompare(b.label),
  );
}

export interface UsageService {
  report(workspaceId: string, query: UsageQuery): Promise<UsageReport>;
}

export function createUsageService(prisma: PrismaClient): UsageService {
  const repository = new UsageRepository(prisma);

  async function labelled(workspaceId: string, query: UsageQuery, groups: UsageSums[]): Promise<UsageRow[]> {
    const ids = groups.flatMap((group) => (group.key === null ? [] : [group.key]));
    switch (query.groupBy) {
      case "apiKey": {
        const keys = await repository.apiKeyLabels(workspaceId, ids);
        return groups.map((group) => {
          if (group.key !== null)
            return { key: group.key, label: keyLabel(keys.get(group.key), group.key), ...figuresOf(group) };
          const trigger = group.trigger !== null && isRunTriggerKind(group.trigger) ? group.trigger : "editor";
          return { key: null, label: `No API key: ${TRIGGER_LABELS[trigger]}`, trigger, ...figuresOf(group) };
        });
      }
      case "workflow": {
        const names = await repository.workflowNames(workspaceId, ids);
        return groups.map((group) => ({
          key: group.key,
          label: names.get(group.key ?? "") ?? `Deleted workflow (${group.key})`,
          ...figuresOf(group),
        }));
      }
      case "trigger":
        return groups.map((group) => ({
          key: group.key,
          label: group.key !== null && isRunTriggerKind(group.key) ? TRIGGER_LABELS[group.key] : String(group.key),
          ...figuresOf(group),
        }));
      case "model":
        return groups.map((group) => ({ key: group.key, label: group.key ?? EMBEDDINGS_LABEL, ...figuresOf(group) }));
      case "day":
        return groups.map((group) => ({ key: group.key, label: group.key ?? "", ...figuresOf(group) }));
    }
  }

  return {
    async report(workspaceId, query) {
      const { groupBy, ...filters } = query;
      const [groups, totals] = await Promise.all([
        groupBy === "model"
          ? repository.byModel(workspaceId, filters)
          : repository.byRuns(workspaceId, groupBy, filters),
        repository.totals(workspaceId, filters),
      ]);
      return {
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        groupBy,
        rows: ordered(await labelled(workspaceId, query, groups), query),
        totals: figuresOf(totals),
      };
    },
  };
}

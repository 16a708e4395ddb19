import "server-only";
import type { BudgetsResponse, PutBudgetsRequest } from "@/contract";
import { processReadCache, type WorkspaceReadCache } from "@/lib/cache";
import { NotFoundError, type BudgetRepository, type PrismaClient } from "@/lib/db";

/**
 * The workspace's monthly caps with what was spent against them this calendar month (UTC), and
 * changes to them. An API key id of another workspace (or none at all) is not found.
 */
export function createBudgetService(
  prisma: PrismaClient,
  budgets: BudgetRepository,
  now: () => Date = () => new Date(),
  /** Told of every change, so this process's next run is held to the new caps (other processes hear the database's notification). */
  readCache: Pick<WorkspaceReadCache, "changing"> = processReadCache(),
) {
  const liveKeys = (workspaceId: string) =>
    prisma.apiKey.findMany({
      where: { workspaceId, revokedAt: null },
      select: { id: true, name: true, prefix: true },
      orderBy: { createdAt: "asc" },
    });

  async function read(workspaceId: string): Promise<BudgetsResponse> {
    const at = now();
    const [caps, keys, spentByKey, spent] = await Promise.all([
      budgets.caps(workspaceId),
      liveKeys(workspaceId),
      budgets.spentThisMonthByApiKey(workspaceId, at),
      budgets.spentThisMonth(workspaceId, { at }),
    ]);
    const capOf = (scope: "workspace" | "api-key", scopeId: string) =>
      caps.find((cap) => cap.scope === scope && cap.scopeId === scopeId)?.monthlyCap ?? null;
    return {
      month: at.toISOString().slice(0, 7),
      workspace: { monthlyCap: capOf("workspace", workspaceId), spentThisMonth: spent },
      apiKeys: keys.map((key) => ({
        ...key,
        monthlyCap: capOf("api-key", key.id),
        spentThisMonth: spentByKey.get(key.id) ?? 0,
      })),
    };
  }

  async function update(workspaceId: string, request: PutBudgetsRequest): Promise<BudgetsResponse> {
    const keyIds = Object.keys(request.apiKeys ?? {});
    if (keyIds.length > 0) {
      const known = new Set(
        (await prisma.apiKey.findMany({ where: { workspaceId, id: { in: keyIds } }, select: { id: true } })).map(
          (key) => key.id,
        ),
      );
      const unknown = keyIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw new NotFoundError("API key", unknown);
    }
    const changes = [
      ...(request.workspace
        ? [{ scope: "workspace" as const, scopeId: workspaceId, monthlyCap: request.workspace.monthlyCap }]
        : []),
      ...Object.entries(request.apiKeys ?? {}).map(([scopeId, monthlyCap]) => ({
        scope: "api-key" as const,
        scopeId,
        monthlyCap,
      })),
    ];
    if (changes.length > 0) await readCache.changing(workspaceId, () => budgets.setCaps(workspaceId, changes));
    return read(workspaceId);
  }

  return { read, update };
}

export type BudgetService = ReturnType<typeof createBudgetService>;

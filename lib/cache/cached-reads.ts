import "server-only";
import type { Repositories, StoredSecret } from "@/lib/db";
import type { WorkspaceReadCache } from "./workspace-read-cache";

/** The repositories whose per-run reads are cached. */
export type CachedRepositories = Pick<Repositories, "deployments" | "secrets" | "priceOverrides" | "budgets">;

/**
 * `target` with some methods replaced; every other member (and `this` inside it) is still the
 * target's. A runtime composed without storage (the tool catalog reads none) has no target: it stays so.
 */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  if (target === undefined) return target;
  return Object.assign(Object.create(target) as T, overrides);
}

/**
 * The reads a run makes before it executes, served from the cache: the active deployment of a
 * workflow, the workspace's secrets (kept encrypted, decrypted for each run that asks), its price
 * overrides and its budget caps. What was spent is never cached. Writes and every other read go
 * to the repositories as before.
 */
export function withReadCache<R extends CachedRepositories>(repositories: R, cache: WorkspaceReadCache): R {
  const { deployments, secrets, priceOverrides, budgets } = repositories;
  const sealed = (workspaceId: string): Promise<StoredSecret[]> =>
    cache.read(workspaceId, "secrets", () => secrets.sealedAll(workspaceId));
  const cached: CachedRepositories = {
    deployments: overriding(deployments, {
      active: (workspaceId, workflowId) =>
        cache.read(workspaceId, `active-deployment:${workflowId}`, () => deployments.active(workspaceId, workflowId)),
    }),
    secrets: overriding(secrets, {
      list: async (workspaceId) => (await sealed(workspaceId)).map((secret) => secret.summary),
      async getMany(workspaceId, names) {
        const wanted = new Set(names);
        const stored = (await sealed(workspaceId)).filter((secret) => wanted.has(secret.summary.name));
        return new Map(stored.map((secret) => [secret.summary.name, secrets.open(secret)]));
      },
    }),
    priceOverrides: overriding(priceOverrides, {
      table: (workspaceId) => cache.read(workspaceId, "price-overrides", () => priceOverrides.table(workspaceId)),
    }),
    budgets: overriding(budgets, {
      caps: (workspaceId) => cache.read(workspaceId, "budget-caps", () => budgets.caps(workspaceId)),
    }),
  };
  return { ...repositories, ...cached };
}

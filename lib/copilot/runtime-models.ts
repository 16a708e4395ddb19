import "server-only";
import type { Runtime } from "@/lib/runtime/runtime";
import type { ResolvedModel } from "@/providers";

/**
 * A model resolved as an Agent block of the workspace resolves it when a run starts: the
 * workspace's stored keys before the operator's, its price overrides, the guarded provider fetch.
 */
export function runtimeModelResolver(runtime: Pick<Runtime, "runEnvironment" | "prepareHandlers" | "repositories">) {
  return async (workspaceId: string, modelId: string): Promise<ResolvedModel> => {
    const [environment, prices] = await Promise.all([
      runtime.runEnvironment(workspaceId),
      runtime.repositories.priceOverrides.table(workspaceId),
    ]);
    return runtime.prepareHandlers(workspaceId, environment.providerEnv, prices).models.resolve(modelId);
  };
}

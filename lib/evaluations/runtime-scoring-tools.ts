import "server-only";
import { lookupHandlers } from "@/blocks/handlers";
import { createEmbedder } from "@/knowledge";
import type { Runtime } from "@/lib/runtime/runtime";
import type { ScoringTools } from "./scoring-tools";

/**
 * The scorers' models as the workspace's runs get them: its stored keys first, then the
 * operator's, its price overrides, and the Evaluator block's handler from the same wiring.
 */
export function runtimeScoringTools(
  runtime: Pick<Runtime, "runEnvironment" | "prepareHandlers" | "repositories">,
): ScoringTools {
  return async (workspaceId) => {
    const [environment, prices] = await Promise.all([
      runtime.runEnvironment(workspaceId),
      runtime.repositories.priceOverrides.table(workspaceId),
    ]);
    const { models, handlers } = runtime.prepareHandlers(workspaceId, environment.providerEnv, prices);
    const evaluator = lookupHandlers(handlers)("evaluator");
    if (!evaluator) throw new Error("The evaluator block has no handler.");
    return {
      models,
      evaluator,
      embedder: (modelId) => createEmbedder(modelId, { env: environment.providerEnv }),
    };
  };
}

import "server-only";
import type { BoundHandler } from "@/executor";
import type { Embedder } from "@/knowledge";
import type { ModelRegistry } from "@/providers";

/**
 * What the model-backed scorers use, made per evaluation for its workspace as its runs' handlers
 * are (its stored keys first, then the operator's; its price overrides): lib/runtime wires it.
 */
export interface ScoringKit {
  models: ModelRegistry;
  /** The Evaluator block's handler, bound to its config parser: the LLM judge is it, prompting and repair included. */
  evaluator: BoundHandler;
  /** @throws ProviderCallError for a model that cannot embed or has no key */
  embedder(modelId: string): Embedder;
}

export type ScoringTools = (workspaceId: string) => Promise<ScoringKit>;

import { agentModelUse } from "./agent/model-use";
import type { BlockType } from "./definitions";
import { evaluatorModelUse } from "./evaluator/model-use";
import type { ModelUse } from "./model-use";
import { routerModelUse } from "./router/model-use";

/**
 * The block types that call models, and how (for the cost estimate). A type absent here spends
 * nothing on models of its own. The knowledge block's query embedding is not counted: its price is
 * a small fraction of a chat call's and its model is the knowledge base's, not the block's.
 */
const modelUses: Partial<Record<BlockType, ModelUse<never>>> = {
  agent: agentModelUse,
  router: routerModelUse,
  evaluator: evaluatorModelUse,
};

/** How a block type calls models, if it does; its config must have been parsed by the type's schema. */
export function modelUseOf(type: string): ModelUse<Record<string, unknown>> | undefined {
  return (modelUses as Record<string, ModelUse<Record<string, unknown>> | undefined>)[type];
}

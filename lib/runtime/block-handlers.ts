import type { BlockType } from "@/blocks/definitions";
import { createAgentHandler } from "@/blocks/agent/handler";
import { createApiHandler } from "@/blocks/api";
import { createEvaluatorHandler } from "@/blocks/evaluator/handler";
import { createFunctionHandler, createProviderAgentService, guardedFetchService } from "@/blocks/function";
import { createKnowledgeHandler } from "@/blocks/knowledge/handler";
import { createRouterHandler } from "@/blocks/router/handler";
import { controlHandlers } from "@/blocks/type-info";
import { createWebHandler } from "@/blocks/web";
import type { BlockHandler, BlockHandlerLookup } from "@/executor/handler";
import type { GuardedFetch } from "@/net";
import type { ModelRegistry } from "@/providers";
import type { KnowledgeSearchFunction } from "@/knowledge";
import type { ToolRegistry } from "@/tools/registry";

export interface BlockHandlerDependencies {
  models: ModelRegistry;
  tools: ToolRegistry;
  guardedFetch: GuardedFetch;
  knowledgeSearch: KnowledgeSearchFunction;
}

/**
 * One handler per block type. Loop and parallel have none: the engine runs containers itself.
 * Typed by BlockType, so a new block type without a handler entry fails the typecheck.
 */
export function createBlockHandlers(deps: BlockHandlerDependencies): Record<BlockType, BlockHandler | null> {
  const agentService = createProviderAgentService(deps.models);
  const fetchService = guardedFetchService(deps.guardedFetch);
  return {
    ...controlHandlers,
    agent: createAgentHandler({ models: deps.models, tools: deps.tools }),
    router: createRouterHandler({ models: deps.models }),
    evaluator: createEvaluatorHandler({ models: deps.models }),
    knowledge: createKnowledgeHandler({ search: deps.knowledgeSearch }) as BlockHandler,
    function: createFunctionHandler({ services: () => ({ agent: agentService, fetch: fetchService }) }),
    api: createApiHandler({ fetch: deps.guardedFetch }),
    web: createWebHandler({ fetch: deps.guardedFetch }),
    loop: null,
    parallel: null,
  };
}

export function handlerLookup(handlers: Record<BlockType, BlockHandler | null>): BlockHandlerLookup {
  return (type) => (Object.hasOwn(handlers, type) ? (handlers[type as BlockType] ?? undefined) : undefined);
}

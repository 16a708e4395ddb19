import "server-only";
import { bindHandler, type BlockHandler, type BlockHandlerLookup, type BoundHandler } from "@/executor";
import type { KnowledgeSearchFunction } from "@/knowledge";
import type { GuardedFetch } from "@/net";
import type { ModelRegistry } from "@/providers";
import type { ToolRegistry } from "@/tools/registry";
import type { WorkflowCalls } from "@/tools/workflow";
import { createAgentHandler } from "./agent/handler";
import { createApiHandler } from "./api/handler";
import { askHandler } from "./ask/handler";
import { conditionHandler } from "./condition/handler";
import { BLOCK_TYPES, type BlockConfig, type BlockType } from "./definitions";
import { createEvaluatorHandler } from "./evaluator/handler";
import { createFunctionHandler } from "./function/handler";
import { guardedFetchService } from "./function/host-services";
import { createProviderAgentService } from "./function/provider-agent-service";
import { simulatedFetchService } from "./function/simulated-fetch";
import { createKnowledgeHandler } from "./knowledge/handler";
import { responseHandler } from "./response/handler";
import { createRouterHandler } from "./router/handler";
import { startHandler } from "./start/handler";
import { blockTypeInfo } from "./type-info";
import { variablesHandler } from "./variables/handler";
import { createWebHandler } from "./web/handler";
import { createWorkflowBlockHandler } from "./workflow/handler";

/**
 * Block handlers by type (server-only: handlers reach models, the network and the sandbox). Each
 * entry's config type is its block type's, so a handler written for another config does not
 * compile; null for loop and parallel, which the engine runs itself.
 */
export type BlockHandlers = { [T in BlockType]: BlockHandler<BlockConfig<T>> | null };

/** The handlers that need nothing from the server. */
export const controlHandlers = {
  start: startHandler,
  condition: conditionHandler,
  response: responseHandler,
  variables: variablesHandler,
  ask: askHandler,
} satisfies Partial<BlockHandlers>;

function bindEntry<T extends BlockType>(handlers: Partial<BlockHandlers>, type: T): BoundHandler | undefined {
  const handler = handlers[type];
  return handler ? bindHandler(blockTypeInfo(type), handler) : undefined;
}

/** The engine's lookup over these handlers, each bound to its block type's config parser. */
export function lookupHandlers(handlers: Partial<BlockHandlers>): BlockHandlerLookup {
  const bound = new Map<string, BoundHandler>();
  for (const type of BLOCK_TYPES) {
    const entry = bindEntry(handlers, type);
    if (entry) bound.set(type, entry);
  }
  return (type) => bound.get(type);
}

/** What the AI and tool blocks reach the world through; lib/runtime supplies it per run. */
export interface BlockHandlerDependencies {
  models: ModelRegistry;
  tools: ToolRegistry;
  guardedFetch: GuardedFetch;
  knowledgeSearch: KnowledgeSearchFunction;
  /** Other workflows of the run's workspace, for the Workflow block (the workflow tool uses the same). */
  workflows: WorkflowCalls;
}

/**
 * One handler per block type. Loop and parallel have none: the engine runs containers itself.
 * Typed by BlockType, so a new block type without a handler entry, or a handler written for
 * another block type's config, fails the typecheck.
 */
export function createBlockHandlers(deps: BlockHandlerDependencies): BlockHandlers {
  const agentService = createProviderAgentService(deps.models);
  const fetchService = guardedFetchService(deps.guardedFetch);
  return {
    ...controlHandlers,
    agent: createAgentHandler({ models: deps.models, tools: deps.tools }),
    router: createRouterHandler({ models: deps.models }),
    evaluator: createEvaluatorHandler({ models: deps.models }),
    knowledge: createKnowledgeHandler({ search: deps.knowledgeSearch }),
    // In a test run `services.fetch` answers from the block's sample; `services.agent` is a model call and runs for real.
    function: createFunctionHandler({
      services: (context) => ({
        agent: agentService,
        fetch: context.simulation ? simulatedFetchService(context.simulation) : fetchService,
      }),
    }),
    api: createApiHandler({ fetch: deps.guardedFetch }),
    web: createWebHandler({ fetch: deps.guardedFetch }),
    workflow: createWorkflowBlockHandler({ workflows: deps.workflows }),
    loop: null,
    parallel: null,
  };
}

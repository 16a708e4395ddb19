import "server-only";
import { lookupBlockType } from "@/blocks";
import type { KnowledgeSearchFunction } from "@/knowledge";
import { getRepositories, type Repositories } from "@/lib/db";
import { getKnowledgeService } from "@/lib/knowledge";
import { RunService } from "@/lib/runs/run-service";
import { createGuardedFetch, outboundConfigFromEnvironment, type GuardedFetch } from "@/net";
import { createModelRegistry } from "@/providers";
import { calculatorToolProvider } from "@/tools/calculator";
import { createHttpRequestToolProvider } from "@/tools/http_request";
import { createKnowledgeSearchToolProvider } from "@/tools/knowledge_search";
import { createMcpToolProvider, describeMcpServer, loadMcpServers } from "@/tools/mcp";
import { createToolRegistry } from "@/tools/registry";
import { createRunFunctionToolProvider } from "@/tools/run_function";
import { createWebPageToolProvider } from "@/tools/web_page";
import { createWorkflowToolProvider, MAX_WORKFLOW_DEPTH_ENV, maxWorkflowDepthFrom } from "@/tools/workflow";
import { createBlockHandlers, lookupHandlers } from "@/blocks/handlers";
import { createRunEnvironment, processProviderEnv, type RunEnvironment } from "./run-environment";
import { workflowToolRuntime } from "./workflow-tool-runtime";

export type EnvReader = (name: string) => string | undefined;

export interface RuntimeOptions {
  repositories: Repositories;
  knowledgeSearch: KnowledgeSearchFunction;
  /**
   * The process environment. A run never reads it whole: `{{NAME}}` gets only the variables listed
   * in TRELLIS_WORKFLOW_ENV, the provider layer only the provider variables (run-environment.ts),
   * and stored secrets come first for both.
   */
  processEnv?: EnvReader;
  guardedFetch?: GuardedFetch;
  runTimeoutMs?: number;
}

/**
 * The composition root: the one place where storage, providers, tools and the executor meet.
 * Handlers are made per run because a run's settings include the stored secrets as they are when
 * it starts (a key changed on the Secrets page applies to the next run, no restart).
 */
export function createRuntime(options: RuntimeOptions) {
  const processEnv: EnvReader = options.processEnv ?? ((name) => process.env[name]);
  const guardedFetch = options.guardedFetch ?? createGuardedFetch(outboundConfigFromEnvironment());
  const { repositories, knowledgeSearch } = options;
  // MCP servers are the operator's (env or DATA_DIR/mcp-servers.json), read when an agent uses one.
  const mcpServers = () => loadMcpServers({ env: processEnv });
  const workflowTools = workflowToolRuntime(repositories, () => runs, maxWorkflowDepthFrom(processEnv(MAX_WORKFLOW_DEPTH_ENV)));

  /** A run's readers (`workflowEnv` for `{{NAME}}`, `providerEnv` for models) over the secrets stored now. */
  async function runEnvironment(): Promise<RunEnvironment> {
    const names = (await repositories.secrets.list()).map((secret) => secret.name);
    const secrets = names.length > 0 ? await repositories.secrets.getMany(names) : new Map<string, string>();
    return createRunEnvironment(secrets, processEnv);
  }

  /** `providerEnv` configures the models; it is never what `{{NAME}}` reads. */
  function prepareHandlers(providerEnv: EnvReader) {
    const models = createModelRegistry({ env: providerEnv });
    const tools = createToolRegistry(
      [
        calculatorToolProvider,
        createHttpRequestToolProvider({ fetch: guardedFetch }),
        createWebPageToolProvider({ fetch: guardedFetch }),
        createRunFunctionToolProvider({ fetch: guardedFetch }),
        createKnowledgeSearchToolProvider({ search: knowledgeSearch }),
        createMcpToolProvider({ servers: mcpServers }),
        createWorkflowToolProvider(workflowTools),
      ],
      { approvals: (request, signal) => runs.approvals.request(request, signal) },
    );
    return { models, tools, handlers: createBlockHandlers({ models, tools, guardedFetch, knowledgeSearch }) };
  }

  const runs = new RunService({
    repositories,
    runTimeoutMs: options.runTimeoutMs,
    async prepare() {
      const environment = await runEnvironment();
      const { handlers } = prepareHandlers(environment.providerEnv);
      return { lookupBlockType, lookupHandler: lookupHandlers(handlers), env: environment.workflowEnv, secrets: environment.masked };
    },
  });

  /** What the inspector offers: tool types, and the operator's MCP servers by name and target only. */
  function toolCatalog() {
    const tools = prepareHandlers(processProviderEnv(processEnv)).tools.list();
    try {
      return { tools, mcpServers: Object.entries(mcpServers()).map(([name, config]) => describeMcpServer(name, config)) };
    } catch (error) {
      return { tools, mcpServers: [], mcpError: error instanceof Error ? error.message : String(error) };
    }
  }

  return { repositories, runs, prepareHandlers, runEnvironment, mcpServers, toolCatalog };
}

export type Runtime = ReturnType<typeof createRuntime>;

const globalCache = globalThis as typeof globalThis & { __trellisRuntime?: Runtime };

/** The app's runtime, kept on globalThis so Next's dev reloads keep live runs. */
export function getRuntime(): Runtime {
  if (!globalCache.__trellisRuntime) {
    const knowledge = getKnowledgeService();
    globalCache.__trellisRuntime = createRuntime({
      repositories: getRepositories(),
      knowledgeSearch: (request, callOptions) => knowledge.search(request, callOptions),
    });
  }
  return globalCache.__trellisRuntime;
}

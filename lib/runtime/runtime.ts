import "server-only";
import { lookupBlockType } from "@/blocks";
import type { SearchRequest, SearchResponse } from "@/knowledge";
import { processReadCache, withReadCache, type WorkspaceReadCache } from "@/lib/cache";
import { getRepositories, type Repositories } from "@/lib/db";
import { getKnowledgeService } from "@/lib/knowledge";
import {
  externalHostsFrom,
  outgoingTraceHeaders,
  TRACE_EXTERNAL_HOSTS_VARIABLE,
  tracedFetch,
} from "@/lib/observability";
import { workerConfigFrom } from "@/lib/runs/durable/worker-config";
import { RunService } from "@/lib/runs/run-service";
import { createGuardedFetch, outboundConfigFromEnvironment, type GuardedFetch } from "@/net";
import {
  createModelRegistry,
  OFFLINE_WORD_DELAY_ENV,
  offlinePaceFrom,
  providerEnvOf,
  providerFetchCache,
  type PriceTable,
  type ProviderEnvInput,
} from "@/providers";
import { sandboxSettings } from "@/sandbox";
import { calculatorToolProvider } from "@/tools/calculator";
import {
  availableFileToolTypes,
  createFileToolProviders,
  FILE_TOOL_TYPES,
  filesSettingsFrom,
  workspaceFiles,
} from "@/tools/files";
import { createHttpRequestToolProvider } from "@/tools/http_request";
import { createKnowledgeSearchToolProvider } from "@/tools/knowledge_search";
import { createMcpToolProvider, describeMcpServer, loadMcpServers, mcpServersForWorkspace } from "@/tools/mcp";
import { createToolRegistry } from "@/tools/registry";
import { createRunFunctionToolProvider } from "@/tools/run_function";
import { createWebPageToolProvider } from "@/tools/web_page";
import { createWorkflowToolProvider, MAX_WORKFLOW_DEPTH_ENV, maxWorkflowDepthFrom } from "@/tools/workflow";
import { createBlockHandlers, lookupHandlers } from "@/blocks/handlers";
import { loadRunEnvironment, processProviderEnv, type RunEnvironment } from "./run-environment";
import { workflowCallRuntime } from "./workflow-call-runtime";

export type EnvReader = (name: string) => string | undefined;

/** Searches the knowledge bases of one workspace: another workspace's base is not found. */
export type WorkspaceKnowledgeSearch = (
  workspaceId: string,
  request: SearchRequest,
  options?: { signal?: AbortSignal },
) => Promise<SearchResponse>;

export interface RuntimeOptions {
  repositories: Repositories;
  knowledgeSearch: WorkspaceKnowledgeSearch;
  /**
   * The process environment. A run never reads it whole: `{{NAME}}` gets only the variables listed
   * in TRELLIS_WORKFLOW_ENV, the provider layer only the provider variables (run-environment.ts),
   * and stored secrets come first for both.
   */
  processEnv?: EnvReader;
  /** Tools' and blocks' requests; model calls get their own guarded fetch (the operator's provider servers allowed). */
  guardedFetch?: GuardedFetch;
  runTimeoutMs?: number;
  /** Where runs' reads of deployments, secrets, prices and caps are cached (default: this process's). */
  readCache?: WorkspaceReadCache;
}

/**
 * The composition root: the one place where storage, providers, tools and the executor meet.
 * Handlers are made per run, for the run's workspace: its stored secrets and price overrides as they
 * are when it starts (a key or a price changed in Settings applies to the next run, no restart), and only its
 * knowledge bases, workflows and the MCP servers it may use.
 */
export function createRuntime(options: RuntimeOptions) {
  const processEnv: EnvReader = options.processEnv ?? ((name) => process.env[name]);
  // What blocks and tools send carries the calling block's `traceparent` while traces are exported (not to external hosts).
  const externalHosts = externalHostsFrom(processEnv(TRACE_EXTERNAL_HOSTS_VARIABLE));
  const traceHeaders = (url: string) => outgoingTraceHeaders(url, externalHosts);
  const guardedFetch = tracedFetch(
    options.guardedFetch ?? createGuardedFetch(outboundConfigFromEnvironment()),
    externalHosts,
  );
  const repositories = withReadCache(options.repositories, options.readCache ?? processReadCache());
  // Model calls pass the same outbound guard, with OUTBOUND_ALLOW_HOSTS and the operator's provider
  // servers (OLLAMA_BASE_URL=http://127.0.0.1:11434, say) allowed, and nothing a workspace chose.
  const providerFetch = providerFetchCache(processEnv("OUTBOUND_ALLOW_HOSTS"));
  // MCP servers are the operator's (env or DATA_DIR/mcp-servers.json), read when an agent uses one;
  // a server may be given to some workspaces only.
  const mcpServers = (workspaceId: string) => mcpServersForWorkspace(loadMcpServers({ env: processEnv }), workspaceId);
  const maxWorkflowDepth = maxWorkflowDepthFrom(processEnv(MAX_WORKFLOW_DEPTH_ENV));
  // Read at start, not at the first Function block: an invalid TRELLIS_SANDBOX_* fails start-up, naming it.
  sandboxSettings();
  // The operator's file-tool settings (TRELLIS_FILES_*), checked at start the same way.
  const filesSettings = filesSettingsFrom(processEnv);
  // How fast the offline model streams its words (checked at start too).
  const offlinePace = offlinePaceFrom(processEnv(OFFLINE_WORD_DELAY_ENV));

  /** A run's readers (`workflowEnv` for `{{NAME}}`, `providerEnv` for models) over the workspace's secrets stored now. */
  function runEnvironment(workspaceId: string): Promise<RunEnvironment> {
    return loadRunEnvironment(repositories.secrets, workspaceId, processEnv);
  }

  /**
   * `providerEnv` configures the models; it is never what `{{NAME}}` reads. `workspacePrices`: the
   * workspace's price overrides, which its model calls are charged at first.
   */
  function prepareHandlers(workspaceId: string, providerEnv: ProviderEnvInput, workspacePrices?: PriceTable) {
    const fetch = providerFetch(providerEnvOf(providerEnv).operator);
    const models = createModelRegistry({
      env: providerEnv,
      fetch,
      ...(workspacePrices ? { workspacePrices } : {}),
      ...(offlinePace ? { offlinePace } : {}),
    });
    const knowledgeSearch = (request: SearchRequest, callOptions?: { signal?: AbortSignal }) =>
      options.knowledgeSearch(workspaceId, request, callOptions);
    const workflowCalls = workflowCallRuntime(workspaceId, repositories, () => runs, maxWorkflowDepth);
    const fileTools = createFileToolProviders(workspaceFiles(filesSettings, workspaceId));
    const tools = createToolRegistry(
      [
        calculatorToolProvider,
        createHttpRequestToolProvider({ fetch: guardedFetch }),
        createWebPageToolProvider({ fetch: guardedFetch }),
        createRunFunctionToolProvider({ fetch: guardedFetch }),
        createKnowledgeSearchToolProvider({ search: knowledgeSearch }),
        createMcpToolProvider({ servers: () => mcpServers(workspaceId), traceHeaders }),
        createWorkflowToolProvider(workflowCalls),
        fileTools.read,
        fileTools.write,
      ],
      { approvals: (request, signal) => runs.approvals.request(request, signal) },
    );
    return {
      models,
      tools,
      handlers: createBlockHandlers({ models, tools, guardedFetch, knowledgeSearch, workflows: workflowCalls }),
    };
  }

  const runs = new RunService({
    repositories,
    runTimeoutMs: options.runTimeoutMs,
    async prepare(workspaceId) {
      // Read once as the run starts (again if it resumes after a pause or a crash), not per model call.
      const [environment, workspacePrices] = await Promise.all([
        runEnvironment(workspaceId),
        repositories.priceOverrides.table(workspaceId),
      ]);
      const { handlers } = prepareHandlers(workspaceId, environment.providerEnv, workspacePrices);
      return {
        lookupBlockType,
        lookupHandler: lookupHandlers(handlers),
        env: environment.workflowEnv,
        secrets: environment.masked,
      };
    },
  });

  /**
   * What the inspector offers: tool types (file tools only where the workspace has a files folder,
   * `file_write` only where writes are on), and the MCP servers it may use, by name and target only.
   */
  function toolCatalog(workspaceId: string) {
    const fileTypes = availableFileToolTypes(workspaceFiles(filesSettings, workspaceId));
    const tools = prepareHandlers(workspaceId, processProviderEnv(processEnv))
      .tools.list()
      .filter((info) => !FILE_TOOL_TYPES.has(info.type) || fileTypes.has(info.type));
    try {
      return {
        tools,
        mcpServers: Object.entries(mcpServers(workspaceId)).map(([name, config]) => describeMcpServer(name, config)),
      };
    } catch (error) {
      return { tools, mcpServers: [], mcpError: error instanceof Error ? error.message : String(error) };
    }
  }

  return { repositories, runs, prepareHandlers, runEnvironment, mcpServers, toolCatalog };
}

export type Runtime = ReturnType<typeof createRuntime>;

const globalCache = globalThis as typeof globalThis & { __trellisRuntime?: Runtime };

/** The app's runtime if something has built it (a run, a tool list), else undefined: for figures that must not build it. */
export function builtRuntime(): Runtime | undefined {
  return globalCache.__trellisRuntime;
}

/** The app's runtime, kept on globalThis so Next's dev reloads keep live runs. */
export function getRuntime(): Runtime {
  if (!globalCache.__trellisRuntime) {
    const knowledge = getKnowledgeService();
    globalCache.__trellisRuntime = createRuntime({
      repositories: getRepositories(),
      runTimeoutMs: workerConfigFrom((name) => process.env[name]).runTimeoutMs,
      knowledgeSearch: (workspaceId, request, callOptions) => knowledge.search(workspaceId, request, callOptions),
    });
  }
  return globalCache.__trellisRuntime;
}

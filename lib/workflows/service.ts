import "server-only";
import { type WorkflowDocument, type StoredWorkflow, type WorkflowSummary } from "@/contract";
import { isTrellisError } from "@/executor";
import {
  getRepositories,
  type KeysetPage,
  type KeysetResult,
  type Repositories,
  type TimeAndId,
  type VersionConflictError,
} from "@/lib/db";
import { loadRunEnvironment } from "@/lib/runtime/run-environment";
import { getRuntime } from "@/lib/runtime/runtime";
import { checkConfigReferences, type WorkspaceHoldings } from "./config-references";
import { hasFallbackModels, refuseFallbacksWithoutKeys, type ProviderEnvFor } from "./fallback-keys";
import { refuseUnknownTools } from "./tool-types";

/** The MCP server names a workspace may use; null when the operator's list cannot be read (a run reports that). */
export type McpServerNames = (workspaceId: string) => Set<string> | null;

/** The agent tool types a workspace's runs offer (the tool registry's); null when not checked. */
export type ToolTypes = (workspaceId: string) => ReadonlySet<string> | null;

/**
 * What saving checks of a document beyond its shape and graph (parse-document.ts): the tool types
 * its agents list exist, and the knowledge bases, workflows and MCP servers it names are the
 * workspace's. The copilot checks each of its edits with the same function.
 */
export function storedThingsCheck(
  repositories: Pick<Repositories, "workspaces">,
  mcpServerNames: McpServerNames = () => new Set(),
  toolTypes: ToolTypes = () => null,
) {
  const { workspaces } = repositories;
  const holdings = (workspaceId: string): WorkspaceHoldings => ({
    knowledgeBases: (ids) => workspaces.heldIds(workspaceId, "knowledgeBase", ids),
    workflows: (ids) => workspaces.heldIds(workspaceId, "workflow", ids),
    mcpServers: () => mcpServerNames(workspaceId),
  });
  return async (workspaceId: string, document: WorkflowDocument): Promise<void> => {
    const known = toolTypes(workspaceId);
    if (known) refuseUnknownTools(document, known);
    await checkConfigReferences(document, holdings(workspaceId));
  };
}

/**
 * Workflow storage for the routes, in one workspace. A document whose block configs name a
 * knowledge base, workflow or MCP server the workspace does not have is refused (404), and one
 * whose agents list a tool type that does not exist is refused (400), before anything is stored. A version conflict answers with the workflow that won (`error.current`), so
 * the editor can show who won and offer reload or overwrite.
 */
export function createWorkflowService(
  repositories: Pick<Repositories, "workflows" | "workspaces">,
  mcpServerNames: McpServerNames = () => new Set(),
  toolTypes: ToolTypes = () => null,
  /** The provider settings the workspace's runs read, to refuse a fallback model without a key; null: not checked. */
  providerEnv: ProviderEnvFor | null = null,
) {
  const { workflows } = repositories;
  const storedThings = storedThingsCheck(repositories, mcpServerNames, toolTypes);
  const check = async (workspaceId: string, document: WorkflowDocument) => {
    if (providerEnv && hasFallbackModels(document))
      refuseFallbacksWithoutKeys(document, await providerEnv(workspaceId));
    await storedThings(workspaceId, document);
  };
  return {
    list: (workspaceId: string, page?: KeysetPage<TimeAndId>): Promise<KeysetResult<WorkflowSummary, TimeAndId>> =>
      workflows.list(workspaceId, page),
    async create(workspaceId: string, document: WorkflowDocument): Promise<StoredWorkflow> {
      await check(workspaceId, document);
      return workflows.create(workspaceId, document);
    },
    get: (workspaceId: string, id: string): Promise<StoredWorkflow> => workflows.get(workspaceId, id),
    namesStartingWith: (workspaceId: string, prefix: string): Promise<Set<string>> =>
      workflows.namesStartingWith(workspaceId, prefix),
    async update(
      workspaceId: string,
      id: string,
      document: WorkflowDocument,
      version: number,
    ): Promise<StoredWorkflow> {
      await workflows.get(workspaceId, id); // another workspace's workflow is not found, whatever the document names
      await check(workspaceId, document);
      try {
        return await workflows.update(workspaceId, id, document, version);
      } catch (error) {
        if (isTrellisError(error) && error.code === "version_conflict") {
          const current = await workflows.get(workspaceId, id).catch(() => null);
          error.responseExtra = { currentVersion: (error as VersionConflictError).currentVersion, current };
        }
        throw error;
      }
    },
    remove: (workspaceId: string, id: string): Promise<void> => workflows.delete(workspaceId, id),
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;

export function appMcpServerNames(workspaceId: string): Set<string> | null {
  try {
    return new Set(Object.keys(getRuntime().mcpServers(workspaceId)));
  } catch {
    return null;
  }
}

export function appToolTypes(workspaceId: string): ReadonlySet<string> {
  return new Set(
    getRuntime()
      .toolCatalog(workspaceId)
      .tools.map((tool) => tool.type),
  );
}

export function workflowService(): WorkflowService {
  return createWorkflowService(
    getRepositories(),
    appMcpServerNames,
    appToolTypes,
    async (workspaceId) =>
      (await loadRunEnvironment(getRepositories().secrets, workspaceId, (name) => process.env[name])).providerEnv,
  );
}

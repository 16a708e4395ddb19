import "server-only";
import { MCP_ENDPOINT_PATH, type McpPublication, type McpPublicationRequest } from "@/contract";
import type { Repositories } from "@/lib/db";
import { toolNameForWorkflow } from "@/tools/workflow";
import type { McpToolRepository, StoredMcpTool } from "./mcp-tool-repository";

/** The workspace's MCP server, on the origin the member reached Trellis at. */
export function mcpEndpointUrl(origin: string): string {
  return `${origin}${MCP_ENDPOINT_PATH}`;
}

/**
 * A workflow's publication as an MCP tool, for its workspace's members (POST and GET
 * /api/workflows/:id/mcp). Publishing needs no deployment, as a chat does not: the answer says
 * whether there is one, since the tool is listed only once the workflow is deployed.
 */
export function createMcpPublications(
  tools: McpToolRepository,
  repositories: Pick<Repositories, "deployments" | "workflows">,
) {
  const deployed = async (workspaceId: string, workflowId: string) =>
    (await repositories.deployments.active(workspaceId, workflowId)) !== null;
  const view = async (workspaceId: string, tool: StoredMcpTool, origin: string): Promise<McpPublication> => ({
    published: true,
    enabled: tool.enabled,
    toolName: tool.toolName,
    description: tool.description,
    deployed: await deployed(workspaceId, tool.workflowId),
    endpoint: mcpEndpointUrl(origin),
  });
  return {
    /** @throws NotFoundError for a workflow not in the workspace */
    async get(workspaceId: string, workflowId: string, origin: string): Promise<McpPublication> {
      const tool = await tools.ofWorkflow(workspaceId, workflowId);
      if (tool) return view(workspaceId, tool, origin);
      const workflow = await repositories.workflows.get(workspaceId, workflowId);
      return {
        published: false,
        enabled: false,
        toolName: toolNameForWorkflow(workflow),
        description: "",
        deployed: await deployed(workspaceId, workflowId),
        endpoint: mcpEndpointUrl(origin),
      };
    },
    /** @throws NotFoundError for a workflow not in the workspace; `conflict` for a tool name another workflow has */
    async save(
      workspaceId: string,
      workflowId: string,
      request: McpPublicationRequest,
      origin: string,
    ): Promise<McpPublication> {
      const tool = await tools.save(workspaceId, workflowId, request);
      return view(workspaceId, tool, origin);
    },
  };
}

export type McpPublications = ReturnType<typeof createMcpPublications>;

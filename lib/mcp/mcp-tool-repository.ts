import "server-only";
import { TrellisError } from "@/executor";
import { assertWorkflowInWorkspace, type PrismaClient } from "@/lib/db";

/** A workflow's publication as an MCP tool, as stored. */
export interface StoredMcpTool {
  workflowId: string;
  workspaceId: string;
  enabled: boolean;
  toolName: string;
  description: string;
}

/** A published tool the workspace's MCP server offers: enabled, and its workflow deployed. */
export interface ListedMcpTool extends StoredMcpTool {
  workflowName: string;
  workflowDescription: string;
  deploymentId: string;
  /** The active deployment's frozen document: its start block declares the tool's parameters. */
  document: unknown;
}

const toolFields = { workflowId: true, workspaceId: true, enabled: true, toolName: true, description: true } as const;

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * Publications of workflows as MCP tools, one per workflow at most. Every read and write names
 * the workspace: a tool name is unique in its workspace (the unique index decides between two
 * saves at once), and one workspace's server never sees another's tools.
 */
export class McpToolRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The workflow's publication, or null before it was first published. @throws NotFoundError for a workflow not in the workspace */
  async ofWorkflow(workspaceId: string, workflowId: string): Promise<StoredMcpTool | null> {
    await assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
    return this.prisma.mcpTool.findFirst({ where: { workflowId, workspaceId }, select: toolFields });
  }

  /**
   * Publishes the workflow or changes its publication. `description` undefined keeps the stored one.
   * @throws NotFoundError for a workflow not in the workspace; `conflict` when another workflow of the workspace has the tool name
   */
  async save(
    workspaceId: string,
    workflowId: string,
    settings: { enabled: boolean; toolName: string; description?: string },
  ): Promise<StoredMcpTool> {
    await assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
    await this.refuseTakenName(workspaceId, workflowId, settings.toolName);
    const changes = {
      enabled: settings.enabled,
      toolName: settings.toolName,
      ...(settings.description === undefined ? {} : { description: settings.description }),
    };
    try {
      return await this.prisma.mcpTool.upsert({
        where: { workflowId },
        create: { workflowId, workspaceId, ...changes },
        update: changes,
        select: toolFields,
      });
    } catch (error) {
      // Another save took the name between the check and the write.
      if (isUniqueViolation(error)) await this.refuseTakenName(workspaceId, workflowId, settings.toolName);
      throw error;
    }
  }

  /** The enabled tools of the workspace whose workflow is deployed, by name (only the one named `toolName` when given). */
  async listed(workspaceId: string, toolName?: string): Promise<ListedMcpTool[]> {
    const rows = await this.prisma.mcpTool.findMany({
      where: {
        workspaceId,
        enabled: true,
        workflow: { activeDeploymentId: { not: null } },
        ...(toolName === undefined ? {} : { toolName }),
      },
      orderBy: { toolName: "asc" },
      select: {
        ...toolFields,
        workflow: {
          select: { name: true, description: true, activeDeployment: { select: { id: true, document: true } } },
        },
      },
    });
    return rows.flatMap(({ workflow, ...tool }) =>
      workflow.activeDeployment
        ? [
            {
              ...tool,
              workflowName: workflow.name,
              workflowDescription: workflow.description,
              deploymentId: workflow.activeDeployment.id,
              document: workflow.activeDeployment.document,
            },
          ]
        : [],
    );
  }

  /** One listed tool by its name, or null when the workspace offers none by that name. */
  async listedByName(workspaceId: string, toolName: string): Promise<ListedMcpTool | null> {
    const [tool] = await this.listed(workspaceId, toolName);
    return tool ?? null;
  }

  private async refuseTakenName(workspaceId: string, workflowId: string, toolName: string): Promise<void> {
    const holder = await this.prisma.mcpTool.findFirst({
      where: { workspaceId, toolName, workflowId: { not: workflowId } },
      select: { workflow: { select: { name: true } } },
    });
    if (holder) {
      throw new TrellisError(
        "conflict",
        `The tool name "${toolName}" is already used by the workflow "${holder.workflow.name}" in this workspace: choose another.`,
      );
    }
  }
}

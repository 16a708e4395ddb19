import "server-only";
import { mcpPublicationRequestSchema } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { addressedUrl } from "@/lib/auth";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { readJsonRequest } from "@/lib/http/read-json";
import type { McpPublications } from "./mcp-publication";
import { answerMcpRequest, type McpServerDependencies } from "./mcp-server";

/** The answer to a signed-in person without a key: an MCP client is a program, and its calls are counted by key. */
export const MCP_NEEDS_API_KEY_MESSAGE =
  "The MCP endpoint takes an API key: send it as Authorization: Bearer <key> (make one under API keys in the user menu).";

/** A workflow's publication as an MCP tool, for its members (POST and GET /api/workflows/:id/mcp). */
export function mcpPublicationEndpoints(publications: () => McpPublications, audit: AuditRequest) {
  return {
    get: endpoint("getMcpPublication", async (request, { id }, { workspace }) =>
      Response.json(await publications().get(workspace.id, id, addressedUrl(request).origin)),
    ),
    save: endpoint("publishMcpTool", async (request, { id }, member) => {
      const body = await readJsonRequest(request, mcpPublicationRequestSchema, {
        subject: "The MCP tool settings",
        maxBytes: 16 * 1024,
      });
      const origin = addressedUrl(request).origin;
      const before = await publications().get(member.workspace.id, id, origin);
      const saved = await publications().save(member.workspace.id, id, body, origin);
      await audit(request, member, {
        action: "mcp.publish",
        object: { type: "workflow", id, name: saved.toolName },
        summary: {
          before: before.published ? { enabled: before.enabled, toolName: before.toolName } : null,
          after: { enabled: saved.enabled, toolName: saved.toolName },
        },
      });
      return Response.json(saved);
    }),
  };
}

/**
 * POST /api/mcp: the workspace's MCP server (Streamable HTTP, stateless). Only an API key gets in;
 * it decides the workspace, and any role may list the tools (calling one needs editor, checked
 * per call so a viewer's client still connects). GET and DELETE are not exported, so they answer
 * 405: with no sessions there is no stream to open or session to end.
 */
export function mcpServerEndpoints(deps: () => McpServerDependencies) {
  return {
    serve: endpoint("serveMcp", async (request, _params, member) => {
      if (member.via !== "api-key") throw new RequestError("unauthenticated", MCP_NEEDS_API_KEY_MESSAGE);
      return answerMcpRequest(
        request,
        { workspaceId: member.workspace.id, role: member.workspace.role, apiKeyId: member.apiKeyId },
        deps(),
      );
    }),
  };
}

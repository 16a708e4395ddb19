import { mcpPublicationRequestSchema } from "../mcp-publication";
import { pathParameter, type ApiOperation } from "./operation";
import { mcpMessageSchema, mcpPublicationSchema } from "./schemas-mcp";

/** Workflows served over MCP (docs/CONTRACT.md section 9): lib/mcp/mcp-endpoints.ts. */

const workflowId = pathParameter("id", "The workflow's id.");

export const MCP_OPERATIONS = [
  {
    operationId: "getMcpPublication",
    method: "GET",
    path: "/api/workflows/{id}/mcp",
    tag: "MCP",
    summary: "Read a workflow's publication as a tool of the workspace's MCP server",
    access: "member",
    role: "viewer",
    parameters: [workflowId],
    answers: [
      {
        status: 200,
        description: "The publication (or, before the first one, `published: false` and a suggested tool name).",
        schema: mcpPublicationSchema,
      },
    ],
  },
  {
    operationId: "publishMcpTool",
    method: "POST",
    path: "/api/workflows/{id}/mcp",
    tag: "MCP",
    summary: "Publish a workflow as an MCP tool, or turn it off",
    description:
      "`toolName`: 1 to 128 letters, digits, `_`, `-` or `.`, unique in the workspace (409 `conflict` naming the workflow that has it, even while that one is off). `description` left out keeps the stored one; empty uses the workflow's own. Publishing needs no deployment, but the tool is listed only once the workflow has an active deployment (`deployed` says whether it has).",
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: {
      schema: mcpPublicationRequestSchema,
      required: true,
      example: {
        enabled: true,
        toolName: "summarise_ticket",
        description: "Summarises a support ticket in two sentences.",
      },
    },
    answers: [
      {
        status: 200,
        description: "The publication, with the MCP `endpoint` to give clients.",
        schema: mcpPublicationSchema,
      },
    ],
    errors: [409],
  },
  {
    operationId: "serveMcp",
    method: "POST",
    path: "/api/mcp",
    tag: "MCP",
    summary: "The workspace's MCP server (Streamable HTTP): its published workflows as tools",
    description:
      'Model Context Protocol over Streamable HTTP, stateless (no `Mcp-Session-Id`; GET and DELETE answer 405). **API key only** (`Authorization: Bearer`): the key decides the workspace; a session cookie is refused with 401, and every 401 carries `WWW-Authenticate: Bearer`. Send `Accept: application/json, text/event-stream` (406 otherwise). `tools/list` names one tool per enabled publication whose workflow has an active deployment, its start inputs as the `inputSchema` (an input without a default is required). `tools/call` runs the active deployment with the arguments as start inputs (trigger `mcp`, counted under the key in `/api/usage`) and answers when the run ends: the output as text (JSON for anything but text), also as `structuredContent` when it is an object, and the run\'s id in `_meta["trellis/runId"]`. Missing, mistyped or unknown arguments, a failed or cancelled run and a key whose role is below editor answer `isError: true` with a sentence saying why (no run is started for bad arguments); an unknown tool is a JSON-RPC error (-32602).',
    access: "member",
    role: "viewer",
    // How it asks for credentials on a 401 (RFC 6750): MCP clients read it.
    challenge: 'Bearer realm="trellis"',
    request: {
      schema: mcpMessageSchema,
      required: true,
      example: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "summarise_ticket", arguments: { ticket: "The printer is on fire" } },
      },
    },
    answers: [
      {
        status: 200,
        description: "The JSON-RPC answers, as server-sent events (`event: message`).",
        contentType: "text/event-stream",
      },
      { status: 202, description: "The message held only notifications." },
    ],
  },
] as const satisfies readonly ApiOperation[];

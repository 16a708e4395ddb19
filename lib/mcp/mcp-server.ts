import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { roleAtLeast, type WorkspaceRole } from "@/contract";
import { isTrellisError } from "@/executor";
import { httpStatusOf } from "@/lib/http/errors";
import { runIntake } from "@/lib/runs/run-intake";
import type { RunService } from "@/lib/runs/run-service";
import type { McpToolRepository } from "./mcp-tool-repository";
import { argumentProblems, mcpToolOf, resultOfRun, startInputsOf, toolError } from "./mcp-tool-shape";
import { processLogger } from "@/lib/observability";

/** The most a JSON-RPC message to the server may hold, as for a run request of the REST API. */
const MAX_MCP_REQUEST_BYTES = 1024 * 1024;

const SERVER_INFO = { name: "trellis", title: "Trellis", version: "1.0.0" };
const INSTRUCTIONS =
  "Each tool runs a deployed Trellis workflow with the arguments as its start inputs and answers with the workflow's output.";

/** Who is calling the workspace's MCP server: an API key acts in its workspace with its creator's role. */
export interface McpCaller {
  workspaceId: string;
  role: WorkspaceRole;
  apiKeyId: string;
}

export interface McpServerDependencies {
  tools: McpToolRepository;
  runs: RunService;
}

/**
 * Runs the published workflow behind a tool: its active deployment, like POST .../execute with
 * `wait`, with the trigger `mcp` and the caller's API key (so usage by key counts it). The
 * arguments are checked against the start inputs first, so a bad call starts no run and the
 * calling model reads what to fix. A workflow that waits for a person keeps the call waiting.
 */
async function callTool(
  caller: McpCaller,
  deps: McpServerDependencies,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const listed = await deps.tools.listedByName(caller.workspaceId, name);
  if (!listed) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}": this workspace publishes no deployed workflow by that name (tools/list names the ones it does).`,
    );
  }
  if (!roleAtLeast(caller.role, "editor")) {
    return toolError(
      `This API key acts with the role ${caller.role}, which cannot run workflows: it needs editor or above.`,
    );
  }
  const problems = argumentProblems(startInputsOf(listed.document), args);
  if (problems.length > 0) return toolError(`Invalid arguments for the tool "${name}": ${problems.join("; ")}.`);
  try {
    const live = await runIntake().accept(() =>
      deps.runs.start(caller.workspaceId, listed.workflowId, args, {
        target: "active-deployment",
        trigger: { kind: "mcp", apiKeyId: caller.apiKeyId },
      }),
    );
    return resultOfRun(await live.done);
  } catch (error) {
    // A refusal written for users (no deployment any more, a workspace at its limit) reaches the caller; anything else stays here.
    if (isTrellisError(error) && httpStatusOf(error.code) !== 500) return toolError(error.message);
    processLogger().error({ err: error, tool: name }, `the MCP tool "${name}" could not start its run`);
    return toolError(
      `The workflow behind the tool "${name}" could not be started: something went wrong on the server.`,
    );
  }
}

/** The workspace's MCP server for one caller: its published, deployed workflows as tools. */
function workspaceServer(caller: McpCaller, deps: McpServerDependencies): Server {
  // The low-level server: tools come from the database per request with JSON Schemas of their own, which McpServer (zod shapes) does not take.
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await deps.tools.listed(caller.workspaceId)).map(mcpToolOf),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(caller, deps, request.params.name, request.params.arguments ?? {}),
  );
  return server;
}

/**
 * Answers one Streamable HTTP request to the workspace's MCP server, statelessly: a server and a
 * transport per request (no session id), so any process answers any request and nothing is kept
 * between them. Responses to a tool call stream as server-sent events, with keep-alive comments
 * while the workflow runs.
 */
export async function answerMcpRequest(
  request: Request,
  caller: McpCaller,
  deps: McpServerDependencies,
): Promise<Response> {
  const server = workspaceServer(caller, deps);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_MCP_REQUEST_BYTES,
  });
  await server.connect(transport);
  return transport.handleRequest(request);
}

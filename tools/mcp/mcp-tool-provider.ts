import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { BlockExecutionError } from "@/core";
import { createGuardedWebFetch } from "@/net";
import type { ToolContext, ToolEntry, ToolProvider, ToolSet } from "../types";
import { BoundedStdioTransport } from "./bounded-stdio-transport";
import { describeMcpServer, type McpServerConfig, type McpServers } from "./mcp-servers";

export const MCP_TOOL_TYPE = "mcp";

export interface McpToolProviderDeps {
  /** The operator's servers, read when an agent uses one (so a bad config fails only those agents). */
  servers: () => McpServers;
  /** Time to connect and list tools. Default 15 s. */
  connectTimeoutMs?: number;
  /** Headers an HTTP server's requests carry from the context they are sent in (the calling block's `traceparent`). */
  traceHeaders?: TraceHeaders;
}

/** The trace headers a request to `url` carries now (none outside a trace). */
export type TraceHeaders = (url: string) => Record<string, string>;

/** `fetch` with the trace headers of the moment added to each request (a header the request sets itself wins). */
function withTraceHeaders(fetch: typeof globalThis.fetch, traceHeaders: TraceHeaders): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const extra = Object.entries(traceHeaders(url));
    if (extra.length === 0) return fetch(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [name, value] of extra) if (!headers.has(name)) headers.set(name, value);
    return fetch(input, { ...init, headers });
  };
}

/** The operator's server is allowed wherever it is; with `traceHeaders`, its requests carry the caller's trace. */
function guardedServerFetch(url: string, traceHeaders: TraceHeaders | undefined): typeof globalThis.fetch {
  const fetch = createGuardedWebFetch({ trustedEndpoints: [url] });
  return traceHeaders ? withTraceHeaders(fetch, traceHeaders) : fetch;
}

/** Connects one client; its `close()` also stops a stdio server's child process. */
export async function connectMcpServer(
  config: McpServerConfig,
  options: { signal?: AbortSignal; timeoutMs?: number; traceHeaders?: TraceHeaders } = {},
): Promise<MCPClient> {
  const transport =
    config.transport === "stdio"
      ? new BoundedStdioTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd })
      : // Through the outbound guard like every request of the server: the operator's server is allowed
        // wherever it is, and anything it points the client to (an SSE endpoint, a redirect) is vetted.
        {
          type: config.transport,
          url: config.url,
          headers: config.headers,
          fetch: guardedServerFetch(config.url, options.traceHeaders),
        };
  // A transport's own failure (a stopped server, say) says more than the closed connection it leads to.
  let transportError: unknown;
  try {
    return await createMCPClient({
      transport,
      clientName: "trellis",
      initializationOptions: { signal: options.signal, timeout: options.timeoutMs },
      onUncaughtError: (error) => {
        // A server's stray message must not crash the process; tool calls still report their own errors.
        transportError ??= error;
      },
    });
  } catch (error) {
    throw transportError ?? error;
  }
}

/** An error message without the URL's query (where a token may sit). */
function scrubbed(message: string, config: McpServerConfig): string {
  if (config.transport === "stdio") return message;
  const { target } = describeMcpServer("", config);
  return message.split(config.url).join(target);
}

async function toolsOfEntry(
  entry: ToolEntry,
  servers: McpServers,
  context: ToolContext,
  timeoutMs: number,
  traceHeaders?: TraceHeaders,
): Promise<ToolSet> {
  // The registry gives this provider its own type's entries only; their schema (contract/tool-entry.ts) checked `server` and `tools`.
  if (entry.kind !== "mcp")
    throw new BlockExecutionError(`The MCP tool provider was given a "${entry.type}" entry`, { code: "invalid_tool" });
  const { server: serverName, tools: wanted } = entry.params;
  const config = Object.hasOwn(servers, serverName) ? servers[serverName] : undefined;
  if (!config) {
    const known = Object.keys(servers).join(", ") || "none";
    throw new BlockExecutionError(
      `MCP server "${serverName}" is not configured (configured: ${known}). The operator lists servers in TRELLIS_MCP_SERVERS or DATA_DIR/mcp-servers.json`,
      { code: "invalid_tool" },
    );
  }
  let client: MCPClient;
  try {
    client = await connectMcpServer(config, {
      signal: context.signal,
      timeoutMs,
      ...(traceHeaders ? { traceHeaders } : {}),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BlockExecutionError(`Could not connect to MCP server "${serverName}": ${scrubbed(reason, config)}`, {
      code: "mcp_unavailable",
      retryable: true,
    });
  }
  context.onCleanup!(() => client.close());
  let offered: ToolSet;
  let definitions: Awaited<ReturnType<MCPClient["listTools"]>>;
  try {
    definitions = await client.listTools({ options: { signal: context.signal, timeout: timeoutMs } });
    offered = client.toolsFromDefinitions(definitions) as ToolSet;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BlockExecutionError(`MCP server "${serverName}" did not list its tools: ${scrubbed(reason, config)}`, {
      code: "mcp_unavailable",
      retryable: true,
    });
  }
  const names = wanted ?? Object.keys(offered);
  const hints = new Map(definitions.tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint === true]));
  const tools: ToolSet = {};
  for (const name of names) {
    const definition = offered[name];
    if (!definition) {
      throw new BlockExecutionError(
        `MCP server "${serverName}" has no tool "${name}" (it offers: ${Object.keys(offered).join(", ") || "none"})`,
        {
          code: "invalid_tool",
        },
      );
    }
    if (context.reservedNames?.has(name)) {
      throw new BlockExecutionError(
        `MCP server "${serverName}" offers a tool named "${name}", the name of the built-in "${name}" tool; list the tools you want in params.tools to leave it out`,
        { code: "invalid_tool" },
      );
    }
    tools[name] = definition;
    if (isReadOnly(config.readOnly, name, hints.get(name) === true)) context.markReadOnly?.(name);
  }
  return tools;
}

/** Whether a test run may call the tool for real (mcp-servers.ts, `readOnly`): the operator's word first, then the tool's own hint. */
function isReadOnly(readOnly: McpServerConfig["readOnly"], name: string, hinted: boolean): boolean {
  if (readOnly === undefined) return hinted;
  return typeof readOnly === "boolean" ? readOnly : readOnly.includes(name);
}

/**
 * `mcp`: the tools of an MCP server the operator configured, `{ type: "mcp", params: { server,
 * tools? } }`. A client is opened per agent run and closed when its tool loop ends.
 */
export function createMcpToolProvider(deps: McpToolProviderDeps): ToolProvider {
  return {
    tools: [
      {
        type: MCP_TOOL_TYPE,
        label: "MCP server",
        description: "Tools of an MCP server the operator configured (params.server; params.tools to pick some).",
      },
    ],
    // A server's tools may act on anything: a test run simulates them, but for those the server marks read-only (isReadOnly).
    sideEffects: true,
    async createTools(entries, context) {
      if (!context.onCleanup)
        throw new BlockExecutionError("MCP tools need a tool loop that closes them when it ends", {
          code: "invalid_tool",
        });
      const servers = deps.servers();
      const tools: ToolSet = {};
      for (const entry of entries) {
        const created = await toolsOfEntry(entry, servers, context, deps.connectTimeoutMs ?? 15_000, deps.traceHeaders);
        for (const [name, definition] of Object.entries(created)) {
          if (name in tools)
            throw new BlockExecutionError(`Two MCP tools are named "${name}"; pick one with params.tools`, {
              code: "invalid_tool",
            });
          tools[name] = definition;
        }
      }
      return tools;
    },
  };
}

/** A server's tools by name, description and arguments' schema, for the inspector; the client is closed at once. */
export async function listMcpServerTools(
  config: McpServerConfig,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
) {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const client = await connectMcpServer(config, { signal: options.signal, timeoutMs });
  try {
    const { tools } = await client.listTools({ options: { signal: options.signal, timeout: timeoutMs } });
    return tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
    }));
  } finally {
    await client.close();
  }
}

import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { TrellisError } from "@/core";

/**
 * MCP servers are chosen by the operator (env `TRELLIS_MCP_SERVERS` or `DATA_DIR/mcp-servers.json`),
 * never by whoever edits a workflow: a workflow names a configured server, it cannot point an
 * agent at a new command or address. That is also why MCP traffic does not go through the
 * outbound guard.
 */

const headerValues = z.record(z.string(), z.string());
const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`),
});
const SERVER_NAME_RULE = "server names use letters, digits, _ and - (1 to 64)";

/**
 * Which of a server's tools only read, so a test run calls them for real (every other MCP call is
 * simulated): `true` all, `false` none (whatever the tools' `readOnlyHint` says), a list those
 * named; absent, the tools whose annotations say `readOnlyHint: true`.
 */
const readOnlyTools = z
  .union([z.boolean(), z.array(z.string().min(1))], { error: "must be true, false or a list of tool names" })
  .optional();

/** The workspace ids that may use a server; absent, every workspace may. */
const allowedWorkspaces = z
  .array(z.string().min(1, "must not be empty"), { error: "must be a list of workspace ids" })
  .optional();

const httpServerSchema = z.strictObject({
  transport: z.enum(["http", "sse"]),
  workspaces: allowedWorkspaces,
  readOnly: readOnlyTools,
  url: z.url({
    protocol: /^https?$/,
    error: (issue) => (issue.input === undefined ? "is required" : "must be an http(s) URL"),
  }),
  headers: headerValues.optional(),
});

const stdioServerSchema = z.strictObject({
  transport: z.literal("stdio"),
  workspaces: allowedWorkspaces,
  readOnly: readOnlyTools,
  command: z.string(required("a command")).min(1, "is required"),
  args: z.array(z.string()).default([]),
  /** Added to the few variables the child inherits (PATH, HOME, ...); the server's own env is not passed on. */
  env: headerValues.optional(),
  cwd: z.string().optional(),
});

export const mcpServerSchema = z.discriminatedUnion("transport", [httpServerSchema, stdioServerSchema], {
  error: 'must be "http", "sse" or "stdio"',
});

export const mcpServersSchema = z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, SERVER_NAME_RULE), mcpServerSchema);

export type McpServerConfig = z.infer<typeof mcpServerSchema>;
export type McpServers = Record<string, McpServerConfig>;

export const MCP_SERVERS_ENV = "TRELLIS_MCP_SERVERS";
export const MCP_SERVERS_FILE = "mcp-servers.json";

export class McpConfigError extends TrellisError {
  constructor(message: string) {
    super("invalid_mcp_config", message);
  }
}

/** Parses the operator's MCP server list; errors name the source and the path, never a value. */
export function parseMcpServers(text: string, source: string): McpServers {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`${source} is not valid JSON: ${error instanceof Error ? error.message : "parse error"}`);
  }
  const parsed = mcpServersSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map(
        (issue) =>
          `${issue.path.join(".") || "(top level)"}: ${issue.code === "invalid_key" ? SERVER_NAME_RULE : issue.message}`,
      )
      .join("; ");
    throw new McpConfigError(`${source} has invalid MCP servers: ${problems}`);
  }
  return parsed.data;
}

export interface McpServerSource {
  env: (name: string) => string | undefined;
  /** DATA_DIR; default `./.data` as in the contract. */
  dataDir?: string;
}

/** The env variable wins over the file; neither set means no MCP servers. */
export function loadMcpServers({ env, dataDir }: McpServerSource): McpServers {
  const fromEnv = env(MCP_SERVERS_ENV);
  if (fromEnv && fromEnv.trim()) return parseMcpServers(fromEnv, MCP_SERVERS_ENV);
  const file = path.join(dataDir ?? env("DATA_DIR") ?? ".data", MCP_SERVERS_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new McpConfigError(`${file} could not be read: ${(error as Error).message}`);
  }
  return parseMcpServers(text, file);
}

/**
 * The servers a workspace may use: those without a `workspaces` list, and those listing it. A
 * server another workspace was given is, for this one, a server that does not exist.
 */
export function mcpServersForWorkspace(servers: McpServers, workspaceId: string): McpServers {
  return Object.fromEntries(
    Object.entries(servers).filter(([, config]) => !config.workspaces || config.workspaces.includes(workspaceId)),
  );
}

/** What the inspector may show about a server: never headers, env or URL credentials. */
export function describeMcpServer(
  name: string,
  config: McpServerConfig,
): { name: string; transport: McpServerConfig["transport"]; target: string } {
  if (config.transport === "stdio") return { name, transport: "stdio", target: path.basename(config.command) };
  const url = new URL(config.url);
  return { name, transport: config.transport, target: `${url.protocol}//${url.host}${url.pathname}` };
}

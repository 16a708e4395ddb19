import "server-only";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import type { Runtime } from "@/lib/runtime/runtime";
import { listModels, PROVIDERS, type EnvReader } from "@/providers";
import { listMcpServerTools } from "@/tools/mcp";

export interface SystemEndpointDependencies extends Pick<Runtime, "toolCatalog" | "mcpServers"> {
  /** Names of the stored secrets, never their values. */
  secretNames(): Promise<string[]>;
  /** The process environment, read only to tell which provider variables are set. */
  env: EnvReader;
}

/** The variables a provider is configured by: the only environment names ever offered. */
const PROVIDER_VARIABLES = Object.values(PROVIDERS)
  .flatMap((provider) => [provider.apiKeyVariable, provider.baseUrlVariable])
  .filter((name): name is string => Boolean(name));

/**
 * Endpoints about the server itself rather than stored data: whether it is up, and what the
 * editor may offer (models, tools, an MCP server's tools, names for `{{` completion).
 */
export function systemEndpoints(deps: SystemEndpointDependencies) {
  return {
    health: endpoint(async () => Response.json({ ok: true })),
    /** The model picker's list: ids, labels and prices per million tokens; never keys. */
    models: endpoint(async () => Response.json({ models: listModels() })),
    /**
     * The inspector's tool picker: `{ tools, mcpServers: [{ name, transport, target }], mcpError? }`.
     * Servers are shown by name and target only: never headers, env values or URL queries. A broken
     * server list is reported in `mcpError`, not as a failure.
     */
    tools: endpoint(async () => Response.json(deps.toolCatalog())),
    /** `{ server, tools: [{ name, description }] }`, asked of the server now. */
    mcpServerTools: endpoint<{ server: string }>(async (request, { server }) => {
      const servers = deps.mcpServers();
      const config = Object.hasOwn(servers, server) ? servers[server] : undefined;
      if (!config) throw new RequestError("not_found", `MCP server "${server}" is not configured (configured: ${Object.keys(servers).join(", ") || "none"}).`);
      try {
        return Response.json({ server, tools: await listMcpServerTools(config, { signal: request.signal }) });
      } catch (error) {
        // A server's URL may carry a token in its query: name the server, never its URL.
        const reason = error instanceof Error ? error.message : String(error);
        throw new RequestError(
          "mcp_unavailable",
          `MCP server "${server}" did not answer: ${config.transport === "stdio" ? reason : reason.split(config.url).join("(its URL)")}`,
        );
      }
    }),
    /**
     * Names for `{{` completion: stored secrets and the provider variables that are set. Names
     * only, never values, and never the rest of the server's environment.
     */
    envNames: endpoint(async () => {
      const configured = PROVIDER_VARIABLES.filter((name) => deps.env(name));
      return Response.json({ names: [...new Set([...(await deps.secretNames()), ...configured])].sort() });
    }),
  };
}

export type SystemEndpoints = ReturnType<typeof systemEndpoints>;

import "server-only";
import { roleAtLeast, type HealthDetails, type McpServerTools, type Readiness, type ToolCatalog } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { workflowEnvNames } from "@/lib/runtime/run-environment";
import type { Runtime } from "@/lib/runtime/runtime";
import type { EnvReader } from "@/providers";
import type { TrellisMetrics } from "@/lib/observability";
import { checkMetricsAccess, METRICS_TOKEN_VARIABLE } from "./metrics-access";
import { checkReadiness, RETRY_AFTER_S, type ReadinessProbe } from "./readiness";
import { listMcpServerTools } from "@/tools/mcp";

export interface SystemEndpointDependencies extends Pick<Runtime, "toolCatalog" | "mcpServers"> {
  /** Names of the workspace's stored secrets, never their values. */
  secretNames(workspaceId: string): Promise<string[]>;
  /** The process environment, read only for TRELLIS_WORKFLOW_ENV and whether the names it lists are set. */
  env: EnvReader;
  /** How loaded this process is (event loop, memory, runs, sandboxes): figures only. */
  healthDetails(options: { collect: boolean }): HealthDetails;
  /** What must answer for this process to be ready (GET /api/health/ready): the database, and whatever is added later. */
  readinessProbes(): readonly ReadinessProbe[];
  /** This process's metrics registry, its scrape-time gauges registered (app-metrics.ts). */
  metrics(): TrellisMetrics;
}

/**
 * Endpoints about the server itself rather than stored data: whether it is up, and what the
 * editor may offer (tools, an MCP server's tools, names for `{{` completion).
 */
export function systemEndpoints(deps: SystemEndpointDependencies) {
  return {
    /** Liveness: answers while the process runs, whatever its dependencies do (a restart would not help them). */
    health: endpoint("health", async () => Response.json({ ok: true })),
    /** Readiness, for load balancers and orchestrators: 503 while something it needs (the database) does not answer. */
    ready: endpoint("readiness", async () => {
      const readiness = await checkReadiness(deps.readinessProbes());
      if (readiness.ok) return Response.json(readiness satisfies Readiness);
      return Response.json(readiness, {
        status: 503,
        headers: { "retry-after": String(RETRY_AFTER_S), "cache-control": "no-store" },
      });
    }),
    /**
     * The load behind the health check, for operators and monitoring: members only, as it tells
     * an outsider how busy the server is. Answered from memory, without touching the database.
     */
    // `collect` pauses the whole process for a full collection: admins only, or a viewer could stall it at will.
    healthDetails: endpoint("healthDetails", async (request, _params, member) => {
      const collect =
        new URL(request.url).searchParams.get("collect") === "1" && roleAtLeast(member.workspace.role, "admin");
      return Response.json(deps.healthDetails({ collect }));
    }),
    /**
     * Prometheus's scrape: with TRELLIS_METRICS_TOKEN as a bearer token, or from this machine when
     * it is unset (metrics-access.ts). Answered from memory but for a few counts the gauges read.
     */
    metrics: endpoint("metrics", async (request) => {
      checkMetricsAccess(request, deps.env(METRICS_TOKEN_VARIABLE) || undefined);
      const { registry } = deps.metrics();
      return new Response(await registry.metrics(), {
        headers: { "content-type": registry.contentType, "cache-control": "no-store" },
      });
    }),
    /**
     * The inspector's tool picker: `{ tools, mcpServers: [{ name, transport, target }], mcpError? }`.
     * Servers are shown by name and target only: never headers, env values or URL queries. A broken
     * server list is reported in `mcpError`, not as a failure.
     */
    tools: endpoint("listTools", async (_request, _params, { workspace }) =>
      Response.json(deps.toolCatalog(workspace.id) satisfies ToolCatalog),
    ),
    /**
     * `{ server, tools: [{ name, description }] }`, asked of the server now. Editors only: asking
     * may start the server's process. A server the workspace may not use is not found.
     */
    mcpServerTools: endpoint("listMcpServerTools", async (request, { server }, { workspace }) => {
      const servers = deps.mcpServers(workspace.id);
      const config = Object.hasOwn(servers, server) ? servers[server] : undefined;
      if (!config)
        throw new RequestError(
          "not_found",
          `MCP server "${server}" is not configured (configured: ${Object.keys(servers).join(", ") || "none"}).`,
        );
      try {
        return Response.json({
          server,
          tools: await listMcpServerTools(config, { signal: request.signal }),
        } satisfies McpServerTools);
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
     * Names for `{{` completion: exactly what a workflow may read, the stored secrets and the
     * variables of TRELLIS_WORKFLOW_ENV that are set. Names only, never values.
     */
    envNames: endpoint("listEnvNames", async (_request, _params, { workspace }) =>
      Response.json({ names: workflowEnvNames(await deps.secretNames(workspace.id), deps.env) }),
    ),
  };
}

export type SystemEndpoints = ReturnType<typeof systemEndpoints>;

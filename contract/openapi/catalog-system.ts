import { pathParameter, type ApiOperation } from "./operation";
import {
  envNamesSchema,
  healthDetailsSchema,
  healthSchema,
  mcpServerToolsSchema,
  modelListSchema,
  openApiDocumentSchema,
  readinessSchema,
  toolCatalogSchema,
} from "./schemas-system";

/** The server itself (lib/system/system-endpoints.ts) and this document (app/api/openapi.json). */

export const SYSTEM_OPERATIONS = [
  {
    operationId: "health",
    method: "GET",
    path: "/api/health",
    tag: "System",
    summary: "Whether the server is up",
    access: "public",
    answers: [{ status: 200, description: "Up.", schema: healthSchema }],
  },
  {
    operationId: "readiness",
    method: "GET",
    path: "/api/health/ready",
    tag: "System",
    summary: "Whether the server can serve requests now",
    description:
      "For load balancers and orchestrators (a readiness probe): 503 while the database cannot be reached, so traffic goes to another instance; `/api/health` stays a liveness check that answers as long as the process runs. Each check is named with its latency.",
    access: "public",
    answers: [
      { status: 200, description: "Ready: every check passed.", schema: readinessSchema },
      {
        status: 503,
        description: "Not ready: a check failed (the database is unreachable).",
        schema: readinessSchema,
        headers: { "Retry-After": "Seconds to wait before asking again." },
      },
    ],
  },
  {
    operationId: "healthDetails",
    method: "GET",
    path: "/api/health/details",
    tag: "System",
    summary: "How loaded this server process is",
    description:
      "The event loop's delay and utilization, memory, runs executing and the Function sandboxes' gate. Members only: it tells an outsider how busy the server is.",
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "Figures only, answered from memory.", schema: healthDetailsSchema }],
  },
  {
    operationId: "listModels",
    method: "GET",
    path: "/api/models",
    tag: "System",
    summary: "The models the picker offers",
    description:
      "Ids, labels and prices per million tokens (the workspace's overrides applied and marked), and the price catalog's version and date; never keys. Not paged: bounded by the server's configuration.",
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "Every model.", schema: modelListSchema }],
  },
  {
    operationId: "listTools",
    method: "GET",
    path: "/api/tools",
    tag: "System",
    summary: "The tool types and MCP servers an agent may use",
    description: "Servers are named with their target only: never headers, env values or URL queries.",
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "The tool catalog.", schema: toolCatalogSchema }],
  },
  {
    operationId: "listMcpServerTools",
    method: "GET",
    path: "/api/tools/mcp/{server}",
    tag: "System",
    summary: "The tools an MCP server lists",
    description:
      "Asked of the server now, which may start its process: editors only. A server the workspace may not use answers 404; one that does not answer, 502.",
    access: "member",
    role: "editor",
    parameters: [pathParameter("server", "The server's name in TRELLIS_MCP_SERVERS.")],
    answers: [{ status: 200, description: "The server's tools.", schema: mcpServerToolsSchema }],
    errors: [502],
  },
  {
    operationId: "listEnvNames",
    method: "GET",
    path: "/api/env-names",
    tag: "System",
    summary: "Names a workflow may read with `{{NAME}}`",
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "Names only, never values.", schema: envNamesSchema }],
  },
  {
    operationId: "metrics",
    method: "GET",
    path: "/api/metrics",
    tag: "System",
    summary: "This process's metrics for Prometheus",
    description:
      "The Prometheus text format (docs/OPERATIONS.md lists every metric): runs started and ended by status, trigger and workspace, run and block durations, the queue's depth and wait, live runs, worker leases, model tokens and dollars by model, the Function sandboxes' gate, the knowledge ingestion queue, the event loop's delay. Read with `Authorization: Bearer $TRELLIS_METRICS_TOKEN`; with no token set, only from the server's own machine (loopback, through no proxy). Session cookies and API keys are not accepted.",
    access: "public",
    parameters: [
      {
        name: "Authorization",
        in: "header",
        description: "`Bearer <TRELLIS_METRICS_TOKEN>`; required when the token is set.",
      },
    ],
    answers: [
      {
        status: 200,
        description: "The metrics, in the Prometheus text exposition format (version 0.0.4).",
        contentType: "text/plain",
      },
    ],
    errors: [401, 403],
  },
  {
    operationId: "openApiDocument",
    method: "GET",
    path: "/api/openapi.json",
    tag: "System",
    summary: "This OpenAPI 3.1 description of the REST API",
    access: "public",
    answers: [{ status: 200, description: "The OpenAPI document.", schema: openApiDocumentSchema }],
  },
] as const satisfies readonly ApiOperation[];

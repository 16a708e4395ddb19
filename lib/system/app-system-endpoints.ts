import "server-only";
import { getPrisma, getRepositories } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { processHealthDetails } from "./health-details";
import { databaseProbe } from "./readiness";
import { systemEndpoints } from "./system-endpoints";

/**
 * The system endpoints over the app's runtime. Each dependency is read when asked, so a health
 * check or the model list never builds the runtime.
 */
export const appSystemEndpoints = systemEndpoints({
  toolCatalog: (workspaceId) => getRuntime().toolCatalog(workspaceId),
  mcpServers: (workspaceId) => getRuntime().mcpServers(workspaceId),
  secretNames: async (workspaceId) => (await getRepositories().secrets.list(workspaceId)).map((secret) => secret.name),
  env: (name) => process.env[name],
  healthDetails: (options) => processHealthDetails({ executingRuns: () => getRuntime().runs.liveRunIds().length }, options),
  // Each probe must pass for GET /api/health/ready to answer 200. A check of free disk space belongs here too.
  readinessProbes: () => [databaseProbe(() => getPrisma().$queryRaw`SELECT 1`)],
});

import "server-only";
import { getPrisma, getRepositories, resolveDatabaseConfig } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { appMetrics } from "./app-metrics";
import { processHealthDetails } from "./health-details";
import { checkDiskSpace } from "./disk-space";
import { databaseProbe, diskProbe, type ReadinessProbe } from "./readiness";
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
  healthDetails: (options) =>
    processHealthDetails({ executingRuns: () => getRuntime().runs.liveRunIds().length }, options),
  // Each probe must pass for GET /api/health/ready to answer 200.
  readinessProbes,
  metrics: appMetrics,
});

/** The database answers; with the embedded database, its disk also keeps the reserve free. */
function readinessProbes(): ReadinessProbe[] {
  const probes = [databaseProbe(() => getPrisma().$queryRaw`SELECT 1`)];
  const config = resolveDatabaseConfig();
  if (config.kind === "embedded" && !config.template) probes.push(diskProbe(config.databaseDir, checkDiskSpace));
  return probes;
}

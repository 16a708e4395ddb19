import "server-only";
import { getRepositories } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { systemEndpoints } from "./system-endpoints";

/**
 * The system endpoints over the app's runtime. Each dependency is read when asked, so a health
 * check or the model list never builds the runtime.
 */
export const appSystemEndpoints = systemEndpoints({
  toolCatalog: () => getRuntime().toolCatalog(),
  mcpServers: () => getRuntime().mcpServers(),
  secretNames: async () => (await getRepositories().secrets.list()).map((secret) => secret.name),
  env: (name) => process.env[name],
});

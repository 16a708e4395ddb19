import "server-only";
import { getDatabase, getPrisma, getRepositories, resolveDatabaseConfig, type SecretRepository } from "@/lib/db";
import { loadRunEnvironment, processProviderEnv } from "@/lib/runtime/run-environment";
import { createProviderFetch, type EnvReader, type ProviderEnvInput } from "@/providers";
import type { VectorCapability } from "./pgvector";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import { processLogger } from "@/lib/observability";

/**
 * One background worker per process, but a service object per module instance: Next.js bundles
 * route modules separately in development, and a service shared through globalThis would throw
 * error classes from another bundle, which the route's error mapping would not recognise (a 500
 * instead of a 415). Claims are atomic, so a second instance waking its own worker after an
 * upload is safe; only the first instance runs the periodic sweep and detects pgvector.
 */
const globalCache = globalThis as typeof globalThis & {
  __trellisKnowledgeWorker?: { capability: Promise<VectorCapability>; stop(): Promise<void> };
};

let local: KnowledgeService | undefined;

/**
 * A workspace's embedding provider settings: its stored keys (OPENAI_API_KEY, ...) first, then the
 * process's provider variables only, as a run reads them; base URLs are the operator's alone. Loaded on every call, so a secret
 * changed in the workspace applies to the next embedding without a restart.
 */
export function workspaceProviderEnv(secrets: Pick<SecretRepository, "list" | "getMany">, processEnv: EnvReader) {
  return async (workspaceId: string): Promise<ProviderEnvInput> =>
    (await loadRunEnvironment(secrets, workspaceId, processEnv)).providerEnv;
}

/** On the embedded database (its files in DATA_DIR, owned by this process alone): its folder, and leases released at start. */
function embeddedOptions(): { embeddedDatabaseDir?: string; releaseLeasesAtStart?: boolean } {
  if (getDatabase().backend !== "embedded") return {};
  const config = resolveDatabaseConfig();
  // Tests' in-memory copies (`template`) have no folder of their own.
  const embeddedDatabaseDir = config.kind === "embedded" && !config.template ? config.databaseDir : undefined;
  return { embeddedDatabaseDir, releaseLeasesAtStart: true };
}

export function getKnowledgeService(): KnowledgeService {
  if (local) return local;
  const service = createKnowledgeService({
    db: getPrisma(),
    envFor: workspaceProviderEnv(getRepositories().secrets, (name) => process.env[name]),
    // Embedding calls pass the outbound guard like every other request of the server.
    fetch: createProviderFetch(
      processProviderEnv((name) => process.env[name]),
      process.env.OUTBOUND_ALLOW_HOSTS,
    ),
    log: (message) => processLogger().warn({ component: "knowledge" }, message),
    ...embeddedOptions(),
  });
  local = service;
  const shared = globalCache.__trellisKnowledgeWorker;
  if (!shared) {
    const capability = service.start().then((detected) => {
      if (!detected.pgvector) processLogger().info(`knowledge: vectors stored as arrays (${detected.reason})`);
      return detected;
    });
    globalCache.__trellisKnowledgeWorker = { capability, stop: () => service.stop() };
  } else {
    void shared.capability.then((detected) => service.adoptCapability(detected));
  }
  return service;
}

/**
 * Call once at server start (instrumentation.ts): detects pgvector and resumes documents left
 * pending or processing by a previous run.
 */
export async function startKnowledgeWorker(): Promise<VectorCapability> {
  getKnowledgeService();
  return globalCache.__trellisKnowledgeWorker!.capability;
}

export async function stopKnowledgeWorker(): Promise<void> {
  await globalCache.__trellisKnowledgeWorker?.stop();
  await local?.stop();
  globalCache.__trellisKnowledgeWorker = undefined;
  local = undefined;
}

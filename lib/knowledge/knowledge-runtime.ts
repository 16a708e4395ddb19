import { getPrisma } from "@/lib/db/client";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";

const globalCache = globalThis as typeof globalThis & { __trellisKnowledge?: { service: KnowledgeService; started?: Promise<unknown> } };

/**
 * The app's knowledge service over the app's database, kept on globalThis so dev hot reloads
 * reuse one worker. Its background worker starts on first use if startKnowledgeWorker() has not
 * run yet, so uploads are processed either way.
 */
export function getKnowledgeService(): KnowledgeService {
  if (!globalCache.__trellisKnowledge) {
    const service = createKnowledgeService({
      db: getPrisma(),
      env: (name) => process.env[name],
      log: (message) => console.warn(`[trellis] ${message}`),
    });
    globalCache.__trellisKnowledge = { service };
  }
  const entry = globalCache.__trellisKnowledge;
  entry.started ??= entry.service.start().then((capability) => {
    if (!capability.pgvector) console.info(`[trellis] knowledge: vectors stored as arrays (${capability.reason})`);
    return capability;
  });
  return entry.service;
}

/**
 * Call once at server start (instrumentation.ts): detects pgvector and resumes documents left
 * pending or processing by a previous run.
 */
export async function startKnowledgeWorker(): Promise<void> {
  getKnowledgeService();
  await globalCache.__trellisKnowledge?.started;
}

export async function stopKnowledgeWorker(): Promise<void> {
  await globalCache.__trellisKnowledge?.service.stop();
  globalCache.__trellisKnowledge = undefined;
}

/**
 * Runs once when the server starts (Next.js instrumentation hook): runs left unfinished by a
 * previous process are marked failed, and knowledge documents left pending resume processing.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getRuntime } = await import("@/lib/runtime/runtime");
  const { startKnowledgeWorker } = await import("@/lib/knowledge");
  try {
    const orphans = await getRuntime().runs.failOrphans();
    if (orphans > 0) console.info(`[trellis] marked ${orphans} run(s) left unfinished by a previous process as failed`);
    await startKnowledgeWorker();
  } catch (error) {
    console.error("[trellis] start-up tasks failed:", error instanceof Error ? error.message : error);
  }
}

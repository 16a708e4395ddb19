/**
 * Runs once when the server starts (Next.js instrumentation hook): the owner account is created
 * from TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD when both are set and no user exists yet,
 * runs left unfinished by a previous process are marked failed, and knowledge documents left
 * pending resume processing.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    const { ensureOwnerFromEnvironment } = await import("@/lib/auth");
    await ensureOwnerFromEnvironment();
  } catch (error) {
    console.error("[trellis] creating the owner account failed:", error instanceof Error ? error.message : error);
  }
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

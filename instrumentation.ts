/**
 * Runs once when the server starts (Next.js instrumentation hook): requests are stamped with their
 * socket's address (lib/auth/peer-address.ts), the owner account is created
 * from TRELLIS_ADMIN_EMAIL and TRELLIS_ADMIN_PASSWORD when both are set and no user exists yet,
 * the process joins the durable run queue (as a worker unless TRELLIS_WORKER=off; runs left by
 * a process that stopped are resumed from their checkpoints), and knowledge documents left
 * pending resume processing.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before any request is answered: the limits on password guesses count by the socket's address.
  const { stampPeerAddresses, trustedProxiesFromEnvironment } = await import("@/lib/auth");
  stampPeerAddresses();
  try {
    trustedProxiesFromEnvironment();
  } catch (error) {
    // Said at start; sign-ins then fail with the same message until the setting is fixed.
    console.error("[trellis]", error instanceof Error ? error.message : error);
  }
  // From the first moment, so a stall during start-up is in the first window.
  const { eventLoopMonitor } = await import("@/lib/system/event-loop-monitor");
  eventLoopMonitor();
  try {
    const { ensureOwnerFromEnvironment } = await import("@/lib/auth");
    await ensureOwnerFromEnvironment();
  } catch (error) {
    console.error("[trellis] creating the owner account failed:", error instanceof Error ? error.message : error);
  }
  const { startRuns } = await import("@/lib/runtime/start-runs");
  const { startKnowledgeWorker } = await import("@/lib/knowledge");
  try {
    await startRuns();
    await startKnowledgeWorker();
    // The token counter's ranks (about 1 s of parsing), built in slices now rather than at once on a first request.
    void (await import("@/providers")).tokenizerReady();
  } catch (error) {
    console.error("[trellis] start-up tasks failed:", error instanceof Error ? error.message : error);
  }
}

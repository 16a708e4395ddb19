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
  // First: a bad LOG_LEVEL or LOG_FORMAT stops the start, naming it, and every line after goes through the one logger.
  const { processLogger, startTracing } = await import("@/lib/observability");
  const log = processLogger();
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (nothing is loaded otherwise); a bad setting stops the start.
  if (await startTracing()) log.info("exporting traces over OTLP");
  // Before any request is answered: the limits on password guesses count by the socket's address.
  const { stampPeerAddresses, trustedProxiesFromEnvironment } = await import("@/lib/auth");
  stampPeerAddresses();
  try {
    trustedProxiesFromEnvironment();
  } catch (error) {
    // Said at start; sign-ins then fail with the same message until the setting is fixed.
    log.error({ err: error }, "the trusted proxies setting is invalid");
  }
  // From the first moment, so a stall during start-up is in the first window.
  const { eventLoopMonitor } = await import("@/lib/system/event-loop-monitor");
  eventLoopMonitor();
  // Metrics from the start (the sandboxes' waits are counted from the first), served at GET /api/metrics.
  const { appMetrics } = await import("@/lib/system/app-metrics");
  appMetrics();
  try {
    const { ensureOwnerFromEnvironment } = await import("@/lib/auth");
    await ensureOwnerFromEnvironment();
  } catch (error) {
    log.error({ err: error }, "creating the owner account failed");
  }
  const { startRuns } = await import("@/lib/runtime/start-runs");
  const { startKnowledgeWorker } = await import("@/lib/knowledge");
  try {
    await startRuns();
    await startKnowledgeWorker();
    // The token counter's ranks (about 1 s of parsing), built in slices now rather than at once on a first request.
    void (await import("@/providers")).tokenizerReady();
  } catch (error) {
    log.error({ err: error }, "start-up tasks failed");
  }
}

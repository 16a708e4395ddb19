export {
  createLogger,
  logFormatFrom,
  processLogger,
  processLogDestination,
  type Logger,
  type LogFormat,
} from "./logger";
export { currentLogContext, requestIdOf, withLogContext, type LogContext } from "./log-context";
export { LOG_LEVELS, logLevelFrom, type LogLevel } from "./log-level";
export { maskedLog, runLog, type MaskedLog } from "./masked-log";
export { operatorSecrets } from "./operator-secrets";
export { createTrellisMetrics, metricsSettingsFrom, processMetrics } from "./metrics/trellis-metrics";
export type { MetricsSettings, TrellisMetrics } from "./metrics/trellis-metrics";
export { runMetricsObserver, type RunMetricsObserver } from "./metrics/run-metrics";
export { runTelemetry, type RunTelemetry } from "./run-telemetry";
export { activeTracing, startTracing } from "./tracing/process-tracing";
export {
  currentTraceParent,
  externalHostsFrom,
  outgoingTraceHeaders,
  TRACE_EXTERNAL_HOSTS_VARIABLE,
  withIncomingTrace,
} from "./tracing/propagation";
export { parseTraceParent } from "./tracing/trace-ids";
export { tracedFetch } from "./tracing/traced-fetch";

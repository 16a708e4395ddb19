/**
 * OTLP export is configured by the standard variables only: OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns it on; OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and OTEL_BSP_* are read by the SDK itself.
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpSettings {
  protocol: OtlpProtocol;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: model spans carry prompts and completions (masked). */
  captureContent: boolean;
}

type Env = (name: string) => string | undefined;

const TRUE = new Set(["true", "1", "on", "yes"]);

/** The settings, or undefined when traces are off (no endpoint, OTEL_SDK_DISABLED, or OTEL_TRACES_EXPORTER=none). */
export function otlpSettingsFrom(env: Env): OtlpSettings | undefined {
  const endpoint = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") || env("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (!endpoint?.trim()) return undefined;
  if (TRUE.has(env("OTEL_SDK_DISABLED")?.trim().toLowerCase() ?? "")) return undefined;
  const exporters = (env("OTEL_TRACES_EXPORTER") ?? "otlp").split(",").map((name) => name.trim().toLowerCase());
  if (exporters.includes("none")) return undefined;
  if (!exporters.includes("otlp"))
    throw new Error(
      `OTEL_TRACES_EXPORTER="${env("OTEL_TRACES_EXPORTER")}": Trellis exports traces over OTLP only (otlp or none)`,
    );
  const protocolName = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";
  const asked = (env(protocolName) || env("OTEL_EXPORTER_OTLP_PROTOCOL") || "http/protobuf").trim();
  if (asked !== "http/protobuf" && asked !== "http/json")
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL="${asked}" is not supported: use http/protobuf (the default) or http/json (an OpenTelemetry Collector can take gRPC from there)`,
    );
  return {
    protocol: asked,
    captureContent: TRUE.has(env("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")?.trim().toLowerCase() ?? ""),
  };
}

import { describe, expect, it } from "vitest";
import { otlpSettingsFrom } from "./otlp-settings";
import { externalHostsFrom } from "./propagation";
import { formatTraceParent, parseTraceParent, recordSpanId, runSpanId, runTraceId } from "./trace-ids";

const env = (values: Record<string, string>) => (name: string) => values[name];

describe("OTLP settings", () => {
  it("are off with no endpoint, when the SDK is disabled, or with the exporter set to none", () => {
    expect(otlpSettingsFrom(env({}))).toBeUndefined();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
    expect(otlpSettingsFrom(env({ ...endpoint, OTEL_SDK_DISABLED: "true" }))).toBeUndefined();
    expect(otlpSettingsFrom(env({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }))).toBeUndefined();
    expect(otlpSettingsFrom(env(endpoint))).toEqual({ protocol: "http/protobuf", captureContent: false });
    expect(
      otlpSettingsFrom(env({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })),
    ).toBeDefined();
  });

  it("take http/json and the content opt-in, and refuse gRPC and other exporters naming the variable", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };
    expect(
      otlpSettingsFrom(
        env({
          ...endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
        }),
      ),
    ).toEqual({ protocol: "http/json", captureContent: true });
    expect(() => otlpSettingsFrom(env({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }))).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not supported/,
    );
    expect(() => otlpSettingsFrom(env({ ...endpoint, OTEL_TRACES_EXPORTER: "zipkin" }))).toThrow(
      /OTEL_TRACES_EXPORTER/,
    );
  });
});

describe("trace ids", () => {
  it("read a W3C traceparent and refuse malformed or all-zero ones", () => {
    const header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(parseTraceParent(header)).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      flags: 1,
    });
    expect(formatTraceParent(parseTraceParent(header)!)).toBe(header);
    expect(parseTraceParent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined();
    expect(parseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).toBeUndefined();
    expect(parseTraceParent("garbage")).toBeUndefined();
    expect(parseTraceParent(null)).toBeUndefined();
  });

  it("derive the same ids for a run in every process, and different ones for different runs and spans", () => {
    expect(runTraceId("run-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(runSpanId("run-1")).toMatch(/^[0-9a-f]{16}$/);
    expect(runTraceId("run-1")).toBe(runTraceId("run-1"));
    expect(runTraceId("run-1")).not.toBe(runTraceId("run-2"));
    expect(recordSpanId("run-1", "span-a")).not.toBe(recordSpanId("run-1", "span-b"));
    expect(recordSpanId("run-1", "span-a")).not.toBe(recordSpanId("run-2", "span-a"));
  });
});

describe("TRELLIS_TRACE_EXTERNAL_HOSTS", () => {
  it("names hosts and their subdomains that are never sent traceparent", () => {
    const external = externalHostsFrom("api.partner.example, *.vendor.test");
    expect(external("api.partner.example")).toBe(true);
    expect(external("eu.api.partner.example")).toBe(true);
    expect(external("vendor.test")).toBe(true);
    expect(external("x.vendor.test")).toBe(true);
    expect(external("partner.example")).toBe(false);
    expect(externalHostsFrom(undefined)("anything")).toBe(false);
  });
});

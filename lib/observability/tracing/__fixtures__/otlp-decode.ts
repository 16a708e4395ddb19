// The OpenTelemetry protocol's messages as protobufjs generated them from the official .proto
// definitions (opentelemetry-proto), shipped by @opentelemetry/otlp-transformer 0.212: a backend's
// view of the bytes, independent of the exporter that wrote them (whose own code is a newer
// hand-written encoder).
import root from "@opentelemetry/otlp-transformer/build/src/generated/root";

/** protobufjs's 64-bit integers: a Long, or a number when it fits. */
type Int64 = { toString(): string } | number;

/** The fields of the messages (opentelemetry/proto/.../v1/*.proto) a receiver reads; their generated types are untyped here. */
export interface DecodedAnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: DecodedAnyValue[] | null } | null;
}

export interface DecodedKeyValue {
  key: string;
  value?: DecodedAnyValue | null;
}

export interface DecodedSpan {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  parentSpanId?: Uint8Array | null;
  name?: string | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: DecodedKeyValue[] | null;
  status?: { code?: number | null; message?: string | null } | null;
}

export interface DecodedRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: DecodedKeyValue[] | null } | null;
    scopeSpans?: Array<{ spans?: DecodedSpan[] | null }> | null;
  }> | null;
}

interface Generated {
  opentelemetry: {
    proto: {
      collector: { trace: { v1: { ExportTraceServiceRequest: { decode(body: Uint8Array): DecodedRequest } } } };
    };
  };
}

/** An ExportTraceServiceRequest read from its protobuf bytes. */
export function decodeTraceRequest(body: Uint8Array): DecodedRequest {
  return (root as unknown as Generated).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.decode(body);
}

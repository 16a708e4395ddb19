import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeTraceRequest, type DecodedAnyValue, type DecodedKeyValue } from "./otlp-decode";

/** A span as an OTLP backend receives it, its ids as hex and its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporter posts to /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body as received, for byte-level checks. */
  bodies: Buffer[];
  close(): Promise<void>;
}

function plain(value: DecodedAnyValue | null | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined && value.stringValue !== null) return value.stringValue;
  if (value.boolValue !== undefined && value.boolValue !== null) return value.boolValue;
  if (value.doubleValue !== undefined && value.doubleValue !== null) return value.doubleValue;
  if (value.intValue !== undefined && value.intValue !== null) return Number(value.intValue.toString());
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributesOf(list: DecodedKeyValue[] | null | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((each) => [each.key, plain(each.value)]));
}

const hex = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString("hex");

/**
 * An OTLP/HTTP trace receiver, as a backend is: it takes POST /v1/traces in protobuf, decodes each
 * request with the OpenTelemetry protocol's own message definitions (otlp-decode.ts), and answers
 * 200 with an empty ExportTraceServiceResponse.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: Buffer[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(body);
      if (request.url !== "/v1/traces" || request.headers["content-type"] !== "application/x-protobuf") {
        response.statusCode = 415;
        response.end();
        return;
      }
      for (const resourceSpans of decodeTraceRequest(body).resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? [])
          for (const span of scopeSpans.spans ?? [])
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name ?? "",
              attributes: attributesOf(span.attributes),
              status: { code: span.status?.code ?? 0, message: span.status?.message ?? "" },
              startTimeUnixNano: BigInt(span.startTimeUnixNano?.toString() ?? "0"),
              endTimeUnixNano: BigInt(span.endTimeUnixNano?.toString() ?? "0"),
              resource,
            });
      }
      response.setHeader("content-type", "application/x-protobuf");
      response.end(Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

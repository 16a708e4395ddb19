import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "@/executor";
import { withLogContext } from "./log-context";
import { logLevelFrom } from "./log-level";
import { createLogger, logFormatFrom } from "./logger";
import { maskedLog } from "./masked-log";
import { operatorSecrets } from "./operator-secrets";

function collector() {
  const lines: string[] = [];
  const destination = new Writable({
    decodeStrings: false,
    write(line: string | Buffer, _encoding, done) {
      lines.push(String(line));
      done();
    },
  });
  return { lines, destination };
}

const KEY = "sk-live-9f8e7d6c5b4a";

describe("the server's logger", () => {
  it("writes one JSON object a line with a level name, an ISO time, the message and the request's id", () => {
    const { lines, destination } = collector();
    const log = createLogger({ level: "info", format: "json", redactor: new SecretRedactor(), destination });
    withLogContext({ requestId: "req-1" }, () => log.info({ runId: "r1" }, "run started"));
    log.debug("not at info");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      level: "info",
      msg: "run started",
      runId: "r1",
      requestId: "req-1",
      pid: process.pid,
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it("masks the operator's credentials in messages, fields and error stacks", () => {
    const { lines, destination } = collector();
    const env = { OPENAI_API_KEY: KEY, DATABASE_URL: "postgresql://app:db-Pa55word@db:5432/trellis" } as Record<
      string,
      string
    >;
    const redactor = new SecretRedactor(operatorSecrets((name) => env[name], Object.keys(env)));
    const log = createLogger({ level: "info", format: "json", redactor, destination });
    log.error({ err: new Error(`provider refused ${KEY}`), header: `Bearer ${KEY}` }, `calling with ${KEY}`);
    log.warn("connecting with db-Pa55word");
    const text = lines.join("");
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("db-Pa55word");
    expect(text).toContain("[secret:OPENAI_API_KEY]");
    expect(JSON.parse(lines[0]!).err.stack).toContain("[secret:OPENAI_API_KEY]");
  });

  it("is readable for a person in development: no JSON, the level and the message on one line", () => {
    const { lines, destination } = collector();
    const log = createLogger({ level: "info", format: "pretty", redactor: new SecretRedactor(), destination });
    log.warn({ runId: "r1" }, "the queue is long");
    const text = lines.join("");
    expect(text).toMatch(/WARN.*the queue is long/);
    expect(text.trimStart().startsWith("{")).toBe(false);
  });

  it("masks a run's own secrets through its redactor, with the run's ids on the line", () => {
    const { lines, destination } = collector();
    const base = createLogger({ level: "info", format: "json", redactor: new SecretRedactor(), destination });
    const log = maskedLog({ runId: "r9" }, new SecretRedactor([["WEBHOOK_TOKEN", "tok-abcdef123"]]), base);
    log.error("could not store tok-abcdef123", new Error("refused tok-abcdef123"));
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ runId: "r9", level: "error", msg: "could not store [secret:WEBHOOK_TOKEN]" });
    expect(lines[0]).not.toContain("tok-abcdef123");
  });
});

describe("LOG_LEVEL and LOG_FORMAT", () => {
  it("default to info, and JSON except under next dev", () => {
    expect(logLevelFrom(undefined)).toBe("info");
    expect(logLevelFrom(" DEBUG ")).toBe("debug");
    expect(logFormatFrom(undefined, "production")).toBe("json");
    expect(logFormatFrom(undefined, "development")).toBe("pretty");
    expect(logFormatFrom("json", "development")).toBe("json");
  });

  it("refuse an unknown value, naming the variable and the choices", () => {
    expect(() => logLevelFrom("loud")).toThrow(/LOG_LEVEL="loud" is not a log level; use one of trace, debug/);
    expect(() => logFormatFrom("xml", undefined)).toThrow(/LOG_FORMAT="xml"/);
  });
});

describe("operatorSecrets", () => {
  it("finds provider keys, credential-named variables, OTLP header values and the database password", () => {
    const env: Record<string, string> = {
      ANTHROPIC_API_KEY: "ak-123456",
      TRELLIS_METRICS_TOKEN: "metrics-token-1",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Basic%20cGs6c2s=,x-team=blue1",
      DATABASE_URL: "postgresql://u:pw-secret@h/db",
      PORT: "3000",
    };
    const values = [...operatorSecrets((name) => env[name], Object.keys(env)).values()];
    expect(values).toEqual(
      expect.arrayContaining(["ak-123456", "metrics-token-1", "Basic cGs6c2s=", "blue1", "pw-secret"]),
    );
    expect(values).not.toContain("3000");
  });
});

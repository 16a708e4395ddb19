import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 34: with OTLP unset no exporter (nor the SDK) is loaded; with an endpoint set, they are.
 * Checked in a process of its own, which starts tracing and lists the CommonJS modules it loaded
 * (the OpenTelemetry packages are CommonJS, so whatever loads them lands in require's cache).
 */

function probe(env: Record<string, string>): { started: boolean; active: boolean; loaded: string[] } {
  const root = path.resolve(__dirname, "../../..");
  const output = execFileSync(
    path.join(root, "node_modules/.bin/tsx"),
    ["--conditions=react-server", path.join(__dirname, "__fixtures__", "tracing-probe.ts")],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
      encoding: "utf8",
    },
  );
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

describe("traces off", () => {
  it("load no exporter and no SDK when OTEL_EXPORTER_OTLP_ENDPOINT is unset; an endpoint loads them", () => {
    const off = probe({});
    expect(off.started).toBe(false);
    expect(off.active).toBe(false);
    expect(off.loaded.filter((file) => /exporter-trace-otlp|sdk-trace/.test(file))).toEqual([]);
    const on = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(on.started).toBe(true);
    expect(on.loaded.some((file) => file.includes("exporter-trace-otlp-proto"))).toBe(true);
  }, 60_000);
});

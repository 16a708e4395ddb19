import { describe, expect, it } from "vitest";
import { SANDBOX_OVERHEAD_MB } from "./sandbox-footprint";
import { capSandboxLimits, sandboxSettingsFrom } from "./sandbox-settings";

const env =
  (values: Record<string, string>) =>
  (name: string): string | undefined =>
    values[name];

describe("sandbox settings", () => {
  it("default to one sandbox per core (at least two), 1 GB in total, 256 MB and 60 s per sandbox, a warm Python worker", () => {
    expect(sandboxSettingsFrom(env({}), 8)).toEqual({
      concurrency: 8,
      memoryMb: 1024,
      maxMemoryMb: 256,
      maxTimeoutMs: 60_000,
      pythonWarm: true,
    });
    expect(sandboxSettingsFrom(env({}), 1).concurrency).toBe(2);
  });

  it("read the operator's values", () => {
    const settings = sandboxSettingsFrom(
      env({
        TRELLIS_SANDBOX_CONCURRENCY: "3",
        TRELLIS_SANDBOX_MEMORY_MB: " 2048 ",
        TRELLIS_SANDBOX_MAX_MEMORY_MB: "512",
        TRELLIS_SANDBOX_MAX_TIMEOUT_MS: "10000",
        TRELLIS_SANDBOX_PYTHON_WARM: "off",
      }),
      8,
    );
    expect(settings).toEqual({
      concurrency: 3,
      memoryMb: 2048,
      maxMemoryMb: 512,
      maxTimeoutMs: 10_000,
      pythonWarm: false,
    });
  });

  it.each([
    [
      "TRELLIS_SANDBOX_CONCURRENCY",
      "lots",
      'TRELLIS_SANDBOX_CONCURRENCY must be a whole number from 1 to 1024, not "lots"',
    ],
    ["TRELLIS_SANDBOX_CONCURRENCY", "0", "TRELLIS_SANDBOX_CONCURRENCY must be a whole number"],
    ["TRELLIS_SANDBOX_MEMORY_MB", "1.5", "TRELLIS_SANDBOX_MEMORY_MB must be a whole number"],
    [
      "TRELLIS_SANDBOX_MEMORY_MB",
      "50",
      `TRELLIS_SANDBOX_MEMORY_MB must be a whole number from ${SANDBOX_OVERHEAD_MB + 8}`,
    ],
    ["TRELLIS_SANDBOX_MAX_MEMORY_MB", "-1", "TRELLIS_SANDBOX_MAX_MEMORY_MB must be a whole number"],
    ["TRELLIS_SANDBOX_MAX_TIMEOUT_MS", "1e3x", "TRELLIS_SANDBOX_MAX_TIMEOUT_MS must be a whole number"],
    ["TRELLIS_SANDBOX_PYTHON_WARM", "maybe", 'TRELLIS_SANDBOX_PYTHON_WARM must be on or off, not "maybe"'],
  ])("refuse an invalid %s (%s), naming it", (name, value, message) => {
    expect(() => sandboxSettingsFrom(env({ [name]: value }), 2)).toThrow(message);
  });

  it("refuse a per-sandbox maximum that could never fit in the total", () => {
    expect(() =>
      sandboxSettingsFrom(env({ TRELLIS_SANDBOX_MEMORY_MB: "512", TRELLIS_SANDBOX_MAX_MEMORY_MB: "512" }), 2),
    ).toThrow(
      /TRELLIS_SANDBOX_MAX_MEMORY_MB \(512\) plus a sandbox's overhead .* must fit in TRELLIS_SANDBOX_MEMORY_MB \(512\)/,
    );
  });

  it("lower the default per-sandbox maximum to what a smaller total can hold", () => {
    expect(sandboxSettingsFrom(env({ TRELLIS_SANDBOX_MEMORY_MB: "200" }), 2).maxMemoryMb).toBe(
      200 - SANDBOX_OVERHEAD_MB,
    );
  });
});

describe("capSandboxLimits", () => {
  const maxima = { maxMemoryMb: 256, maxTimeoutMs: 10_000 };

  it("gives a request above the maxima the maxima, and says which were lowered", () => {
    expect(capSandboxLimits({ cpuTimeMs: 60_000, memoryBytes: 512 * 1024 * 1024 }, maxima)).toEqual({
      cpuTimeMs: 10_000,
      memoryBytes: 256 * 1024 * 1024,
      cpuTimeCapped: true,
      memoryCapped: true,
    });
  });

  it("leaves a request within the maxima as it is", () => {
    expect(capSandboxLimits({ cpuTimeMs: 10_000, memoryBytes: 64 * 1024 * 1024 }, maxima)).toEqual({
      cpuTimeMs: 10_000,
      memoryBytes: 64 * 1024 * 1024,
      cpuTimeCapped: false,
      memoryCapped: false,
    });
  });
});

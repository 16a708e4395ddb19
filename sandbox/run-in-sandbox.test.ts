import { describe, expect, it } from "vitest";
import { CancelledError, SandboxError } from "@/core";
import { runInSandbox, type SandboxRequest } from "./run-in-sandbox";

async function failureOf(request: SandboxRequest): Promise<SandboxError> {
  try {
    await runInSandbox(request);
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error("expected the sandbox to fail");
}

/** Counts ticks of a host timer while `work` runs, to show the host thread stays free. */
async function hostTicksDuring<T>(
  work: Promise<T>,
): Promise<{ ticks: number; elapsedMs: number; settled: PromiseSettledResult<T> }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const startedAt = Date.now();
  const [settled] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { ticks, elapsedMs: Date.now() - startedAt, settled: settled! };
}

describe("runInSandbox: results", () => {
  it("returns the result, console output, outputs and reads inputs, with top-level await and return", async () => {
    const outcome = await runInSandbox({
      code: `
        console.log("hello", { a: 1 }, [2]);
        const doubled = await Promise.resolve(services.inputs.n * 2);
        services.outputs("doubled", doubled);
        return { doubled, when: new Date(0) };`,
      inputs: { n: 21 },
    });
    expect(outcome.result).toEqual({ doubled: 42, when: "1970-01-01T00:00:00.000Z" });
    expect(outcome.outputs).toEqual({ doubled: 42 });
    expect(outcome.stdout).toBe('hello {"a":1} [2]\n');
    expect(outcome.stdoutTruncated).toBe(false);
  });

  it("gives null when the code returns nothing", async () => {
    expect((await runInSandbox({ code: "const x = 1;" })).result).toBeNull();
  });

  it.each([
    ["return () => 1", "result is a function"],
    ["const a = { b: {} }; a.b.back = a; return a", "result.b.back is a cyclic reference"],
    ["return { big: 10n }", "result.big is a BigInt"],
    ["return [1, undefined]", "result[1] is undefined"],
    ["return { n: NaN }", "result.n is NaN"],
    ["return new Map([[1, 2]])", "result is a Map"],
    ["return { later: Promise.resolve(1) }", "result.later is a Promise; did you forget await?"],
    ["return Symbol('s')", "result is a Symbol"],
  ])("refuses a result that is not JSON: %s", async (code, message) => {
    const error = await failureOf({ code });
    expect(error.code).toBe("sandbox_error");
    expect(error.message).toContain(message);
  });

  it("reports syntax errors and thrown errors with their line", async () => {
    expect((await failureOf({ code: "const a = 1;\nconst = 2;" })).message).toMatch(/^SyntaxError: .*\(line 2\)$/);
    expect((await failureOf({ code: "\n\nthrow new RangeError('too big')" })).message).toBe(
      "RangeError: too big (line 3)",
    );
  });

  it("refuses a result larger than the output limit", async () => {
    const error = await failureOf({ code: "return 'x'.repeat(20000)", limits: { maxOutputBytes: 10_000 } });
    expect(error.code).toBe("sandbox_output");
    expect(error.message).toContain("over the limit of 10000 bytes");
  });

  it("cuts console output past its limit and ends it with a marker saying so", async () => {
    const outcome = await runInSandbox({
      code: "for (let i = 0; i < 100; i++) console.log('line ' + i); return 1",
      limits: { maxStdoutChars: 50 },
    });
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stdout).toMatch(/^line 0\nline 1\n/);
    expect(outcome.stdout).not.toContain("line 99");
    expect(outcome.stdout.endsWith("\n… [output truncated after 50 characters]")).toBe(true);
    const flood = await runInSandbox({ code: "console.log('x'.repeat(100000))" });
    expect(flood.stdout.endsWith("\n… [output truncated after 65,536 characters]")).toBe(true);
  });

  it.each([
    ["throw { code: 42, reason: 'nope' }", 'Uncaught {"code":42,"reason":"nope"}'],
    ["throw 'boom'", 'Uncaught "boom"'],
    ["throw 42", "Uncaught 42"],
    ["throw null", "Uncaught null"],
    ["throw undefined", "Uncaught undefined"],
    ["await Promise.reject({ status: 404 })", 'Uncaught {"status":404}'],
    ["throw new Error()", "Error (line 1)"],
  ])("shows what the code threw: %s", async (code, message) => {
    expect((await failureOf({ code })).message).toBe(message);
  });

  it("keeps a huge thrown value or message short, saying how long it was", async () => {
    for (const code of ["throw { big: 'x'.repeat(100000) }", "throw new Error('y'.repeat(1000000))"]) {
      const { message } = await failureOf({ code });
      expect(message.length).toBeLessThan(2100);
      expect(message).toMatch(/… \(\d+ characters\)/);
    }
  });
});

describe("runInSandbox: limits", () => {
  it("stops an infinite loop at the deadline while the host keeps running", async () => {
    const { ticks, elapsedMs, settled } = await hostTicksDuring(
      runInSandbox({ code: "while (true) {}", limits: { cpuTimeMs: 1000 } }),
    );
    expect(settled.status).toBe("rejected");
    const error = (settled as PromiseRejectedResult).reason as SandboxError;
    expect(error.code).toBe("sandbox_timeout");
    expect(elapsedMs).toBeLessThan(5000);
    // A 20 ms timer over at least a second: it would be 0 if the loop ran on this thread.
    expect(ticks).toBeGreaterThan(20);
  });

  it("stops a memory bomb at the memory limit while the host keeps running", async () => {
    const { ticks, elapsedMs, settled } = await hostTicksDuring(
      runInSandbox({
        code: "const a = []; while (true) a.push('x'.repeat(10000) + a.length);",
        limits: { memoryBytes: 32 * 1024 * 1024, cpuTimeMs: 20_000 },
      }),
    );
    expect(settled.status).toBe("rejected");
    const error = (settled as PromiseRejectedResult).reason as SandboxError;
    expect(error.code).toBe("sandbox_memory");
    expect(error.message).toContain("32 MB");
    expect(elapsedMs).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(0);
  });

  it("stops one huge allocation at the memory limit", async () => {
    const error = await failureOf({
      code: "return 'x'.repeat(400e6).length",
      limits: { memoryBytes: 32 * 1024 * 1024 },
    });
    expect(error.code).toBe("sandbox_memory");
  });

  it("terminates a worker whose script cannot be interrupted", async () => {
    const startedAt = Date.now();
    const error = await failureOf({
      code: "",
      limits: { cpuTimeMs: 300, terminateGraceMs: 300 },
      workerUrl: new URL("./__fixtures__/stuck-worker.mjs", import.meta.url),
    });
    expect(error.code).toBe("sandbox_timeout");
    expect(error.message).toContain("terminated");
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it("fails when the code awaits something that never happens", async () => {
    expect((await failureOf({ code: "await new Promise(() => {})" })).message).toContain("never settles");
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    const run = runInSandbox({ code: "while (true) {}", signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(run).rejects.toBeInstanceOf(CancelledError);
  });
});

describe("runInSandbox: isolation", () => {
  it.each([
    ["typeof require", "undefined"],
    ["typeof process", "undefined"],
    ["typeof module + typeof exports + typeof Buffer", "undefinedundefinedundefined"],
    ["typeof fetch + typeof setTimeout + typeof WebAssembly", "undefinedundefinedundefined"],
    ["typeof globalThis.constructor.constructor('return this')().process", "undefined"],
    ["typeof Function('return typeof process')()", "string"],
    ["Function('return typeof process')()", "undefined"],
    ["services.outputs.constructor.constructor('return typeof process + typeof require')()", "undefinedundefined"],
    ["console.log.constructor('return typeof process')()", "undefined"],
    ["Object.getPrototypeOf(async function () {}).constructor('return typeof process')().constructor.name", "Promise"],
    ["({}).__proto__.constructor.constructor('return typeof std + typeof os')()", "undefinedundefined"],
  ])("no host object is reachable: %s", async (code, expected) => {
    const outcome = await runInSandbox({ code: `return ${code}` });
    expect(outcome.result).toBe(expected);
  });

  it("has no module loader to reach the file system", async () => {
    const error = await failureOf({
      code: "const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8')",
    });
    expect(error.code).toBe("sandbox_error");
    expect(error.message).not.toContain("root:");
  });

  it("keeps the host's globals untouched when the code rewrites its own", async () => {
    await runInSandbox({ code: "Object.prototype.polluted = 1; Array.prototype.map = null; return 1" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof [].map).toBe("function");
  });
});

describe("runInSandbox: host services", () => {
  it("proxies a call to the host and returns its answer", async () => {
    const calls: unknown[][] = [];
    const outcome = await runInSandbox({
      code: "const answer = await services.lookup('order-7', { verbose: true }); return answer.total * 2",
      services: {
        lookup: async (args) => {
          calls.push(args);
          return { total: 21 };
        },
      },
    });
    expect(calls).toEqual([["order-7", { verbose: true }]]);
    expect(outcome.result).toBe(42);
  });

  it("surfaces a host error as an exception the code can catch", async () => {
    const outcome = await runInSandbox({
      code: "try { await services.lookup('x'); return 'no error' } catch (error) { return { name: error.name, message: error.message, code: error.code } }",
      services: { lookup: async () => Promise.reject(new SandboxError("sandbox_error", "the order does not exist")) },
    });
    expect(outcome.result).toEqual({
      name: "SandboxError",
      message: "the order does not exist",
      code: "sandbox_error",
    });
  });

  it("fails the block when a host error is not caught", async () => {
    const error = await failureOf({
      code: "await services.lookup('x')",
      services: { lookup: async () => Promise.reject(new Error("database is down")) },
    });
    expect(error.message).toBe("ServiceError: services.lookup failed: database is down (line 1)");
  });

  it("refuses arguments that are not JSON before calling the host", async () => {
    let called = false;
    const error = await failureOf({
      code: "await services.lookup(() => 1)",
      services: {
        lookup: async () => {
          called = true;
        },
      },
    });
    expect(error.message).toContain("services.lookup arguments[0] is a function");
    expect(called).toBe(false);
  });

  it("refuses, inside the sandbox, service arguments over 4 M characters of JSON", async () => {
    let called = false;
    const outcome = await runInSandbox({
      code: "try { await services.lookup('x'.repeat(5e6)) } catch (error) { return error.message }",
      services: {
        lookup: async () => {
          called = true;
        },
      },
    });
    expect(outcome.result).toBe("services.lookup arguments are 5000004 characters of JSON, over the limit of 4194304");
    expect(called).toBe(false);
  });

  it("runs several calls at once and keeps their answers apart", async () => {
    const outcome = await runInSandbox({
      code: "return await Promise.all([3, 1, 2].map((n) => services.slow(n)))",
      services: {
        slow: async ([n]) =>
          new Promise((resolve) => setTimeout(() => resolve((n as number) * 10), (n as number) * 20)),
      },
    });
    expect(outcome.result).toEqual([30, 10, 20]);
  });

  it("does not count time waiting on a service against the CPU budget", async () => {
    const outcome = await runInSandbox({
      code: "await services.wait(); return 'done'",
      limits: { cpuTimeMs: 200, terminateGraceMs: 200 },
      services: { wait: () => new Promise((resolve) => setTimeout(() => resolve(null), 900)) },
    });
    expect(outcome.result).toBe("done");
  });
});

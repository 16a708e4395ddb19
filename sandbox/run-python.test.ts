import { describe, expect, it, vi } from "vitest";
import { SandboxError } from "@/core";
import { runInSandbox, type SandboxRequest } from "./run-in-sandbox";
import { SandboxGate } from "./sandbox-gate";

/**
 * Python in the sandbox (Pyodide in a worker): results, services, failures and limits. The tests
 * share a gate of their own (and so its one warm worker), apart from the process's.
 */

const shared = new SandboxGate({ concurrency: 4, memoryMb: 4096 });
const python = (request: Omit<SandboxRequest, "language">) =>
  runInSandbox({ gate: shared, ...request, language: "python" });

async function failureOf(request: Omit<SandboxRequest, "language">): Promise<SandboxError> {
  try {
    await python(request);
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error("expected the sandbox to fail");
}

describe("Python in the sandbox: results", () => {
  it("returns the value of a final return, with print output, outputs and inputs as Python values", async () => {
    const outcome = await python({
      code: `
import math
print("hello", {"a": 1}, [2])
n = services.inputs["n"]
assert isinstance(services.inputs["tags"], list) and services.inputs["missing"] is None
services.outputs("doubled", n * 2)
await services.outputs("root", math.sqrt(n + 4))
return {"doubled": n * 2, "tuple": (1, 2), "ok": True, "none": None, "keys": {1: "one"}}`,
      inputs: { n: 21, tags: ["x"], missing: null },
    });
    expect(outcome.result).toEqual({ doubled: 42, tuple: [1, 2], ok: true, none: null, keys: { "1": "one" } });
    expect(outcome.outputs).toEqual({ doubled: 42, root: 5 });
    expect(outcome.stdout).toBe("hello {'a': 1} [2]\n");
    expect(outcome.stdoutTruncated).toBe(false);
  }, 60_000);

  it("gives the value of main() when the body returns nothing, awaiting it when it is async", async () => {
    expect((await python({ code: "def main():\n    return sum(range(5))" })).result).toBe(10);
    expect(
      (await python({ code: "import asyncio\nasync def main():\n    await asyncio.sleep(0)\n    return 'later'" }))
        .result,
    ).toBe("later");
    expect((await python({ code: "x = 1" })).result).toBeNull();
  }, 60_000);

  it("calls host services as awaitable functions, keyword arguments becoming the options", async () => {
    const calls: unknown[][] = [];
    const outcome = await python({
      code: `
answer = await services.echo("hi", {"a": 1})
merged = await services.echo("url", method="POST", body={"x": [1, 2]})
try:
    await services.broken()
except ServiceError as error:
    failure = {"code": error.code, "message": str(error)}
return {"answer": answer, "merged": merged, "failure": failure}`,
      services: {
        echo: async (args) => {
          calls.push(args);
          return { got: args };
        },
        broken: async () => {
          throw new Error("the host said no");
        },
      },
    });
    expect(calls).toEqual([
      ["hi", { a: 1 }],
      ["url", { method: "POST", body: { x: [1, 2] } }],
    ]);
    expect(outcome.result).toEqual({
      answer: { got: ["hi", { a: 1 }] },
      merged: { got: ["url", { method: "POST", body: { x: [1, 2] } }] },
      failure: { code: "service_failed", message: "services.broken failed: the host said no" },
    });
  }, 60_000);
});

describe("Python in the sandbox: bad input", () => {
  it("reports a syntax error with its line and message before running anything", async () => {
    const calls: unknown[] = [];
    const error = await failureOf({
      code: "await services.note()\nx = (1,\ny = 2\nreturn x",
      services: { note: async () => calls.push(1) },
    });
    expect(error.code).toBe("sandbox_error");
    expect(error.message).toMatch(/^SyntaxError: .+ \(line [23]\)$/);
    expect(calls).toEqual([]);
  }, 60_000);

  it("reports an exception with its type, message and the line in the user's code", async () => {
    expect((await failureOf({ code: "x = 1\n\ndef divide(a):\n    return a / 0\n\nreturn divide(x)" })).message).toBe(
      "ZeroDivisionError: division by zero (line 4)",
    );
    expect((await failureOf({ code: "import json\njson.loads('{nope')" })).message).toMatch(
      /^JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 \(char 1\) \(line 2\)$/,
    );
  }, 60_000);

  it.each([
    ["return {1, 2}", "result is a set; convert it with list(...)"],
    [
      "return {'when': __import__('datetime').date(2024, 1, 2)}",
      'result["when"] is a date; convert it with .isoformat()',
    ],
    ["return [1, lambda: 2]", "result[1] is a function"],
    ["a = []\na.append(a)\nreturn a", "result[0] refers to itself"],
    ["return {'n': float('nan')}", 'result["n"] is not a finite number (nan)'],
    ["return 2**64", "result is an integer beyond 2**53"],
    ["async def f():\n    return 1\nreturn f()", "result is an awaitable; did you forget await?"],
    ["return {(1, 2): 'pair'}", "result has the key (1, 2), a tuple; keys must be strings"],
    ["services.outputs('raw', b'bytes')", 'services.outputs("raw") is bytes'],
  ])(
    "refuses a value that is not JSON, naming where it is: %s",
    async (code, message) => {
      const error = await failureOf({ code });
      expect(error.code).toBe("sandbox_error");
      expect(error.message).toContain(message);
    },
    60_000,
  );

  it("refuses a result larger than the output limit, and cuts console output past its limit", async () => {
    const error = await failureOf({ code: "return 'x' * 20000", limits: { maxOutputBytes: 10_000 } });
    expect(error.code).toBe("sandbox_output");
    expect(error.message).toContain("over the limit of 10000 bytes");

    const outcome = await python({
      code: "for i in range(100):\n    print('line', i)\nreturn 1",
      limits: { maxStdoutChars: 50 },
    });
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stdout.startsWith("line 0\nline 1\n")).toBe(true);
    expect(outcome.stdout).toContain("[output truncated after 50 characters]");
    expect(outcome.result).toBe(1);
  }, 60_000);

  it("stops an infinite loop at its time limit, even one that catches KeyboardInterrupt, while other runs go on", async () => {
    const [loop, stubborn, neighbour] = await Promise.allSettled([
      runInSandbox({ gate: shared, language: "python", code: "while True:\n    pass", limits: { cpuTimeMs: 500 } }),
      runInSandbox({
        gate: shared,
        language: "python",
        code: "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
        limits: { cpuTimeMs: 500, terminateGraceMs: 500 },
      }),
      runInSandbox({ gate: shared, language: "python", code: "return sum(range(1000))" }),
    ]);
    expect(loop).toMatchObject({ status: "rejected", reason: { code: "sandbox_timeout" } });
    expect((loop as PromiseRejectedResult).reason.message).toBe(
      "The code ran longer than its time limit of 500 ms and was stopped",
    );
    expect(stubborn).toMatchObject({ status: "rejected", reason: { code: "sandbox_timeout" } });
    expect(neighbour).toMatchObject({ status: "fulfilled", value: { result: 499500 } });
    // The workers are gone: nothing is running or reserved but a warm worker kept for the next run.
    await vi.waitFor(() => expect(shared.stats()).toMatchObject({ running: 0, waiting: 0 }));
  }, 90_000);

  it("stops a memory bomb at its memory limit; the next run in a new worker is unaffected", async () => {
    const bomb = await runInSandbox({
      gate: shared,
      language: "python",
      code: "chunks = []\nwhile True:\n    chunks.append(bytearray(1024 * 1024))",
      limits: { memoryBytes: 32 * 1024 * 1024 },
    }).catch((error: unknown) => error);
    expect(bomb).toMatchObject({
      code: "sandbox_memory",
      message: "The code used more than its memory limit of 32 MB and was stopped",
    });
    const huge = await runInSandbox({
      gate: shared,
      language: "python",
      code: "return len('x' * (200 * 1024 * 1024))",
      limits: { memoryBytes: 32 * 1024 * 1024 },
    }).catch((error: unknown) => error);
    expect(huge).toMatchObject({ code: "sandbox_memory" });
    const after = await runInSandbox({
      gate: shared,
      language: "python",
      code: "return len(bytearray(8 * 1024 * 1024))",
      limits: { memoryBytes: 32 * 1024 * 1024 },
    });
    expect(after.result).toBe(8 * 1024 * 1024);
  }, 90_000);

  it("reports recursion that goes too deep", async () => {
    const error = await failureOf({ code: "def f(n):\n    return f(n + 1)\nreturn f(0)" });
    expect(error.message).toContain("RecursionError: maximum recursion depth exceeded");
  }, 60_000);

  it("refuses asyncio.run with a message saying why, rather than hanging", async () => {
    const error = await failureOf({ code: "import asyncio\nasync def go():\n    return 1\nreturn asyncio.run(go())" });
    expect(error.message).toContain("asyncio.run is not needed in the sandbox");
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESERVED_NAME_MESSAGE } from "@/contract";
import { CancelledError, SandboxError } from "@/core";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { createModelRegistry } from "@/providers/model-registry";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createFunctionHandler } from "./handler";
import { createSimulatedServices, guardedFetchService, type FunctionHostServices } from "./host-services";
import { createProviderAgentService } from "./provider-agent-service";

let api: LocalServer;

beforeAll(async () => {
  api = await startLocalServer((request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        got: request.method,
        body: request.body ? JSON.parse(request.body) : null,
        auth: request.headers.authorization ?? null,
      }),
    );
  });
});

afterAll(() => api.close());

function realServices(): FunctionHostServices {
  return {
    agent: createProviderAgentService(createModelRegistry({ env: () => undefined })),
    fetch: guardedFetchService(createGuardedFetch({ allowHosts: `127.0.0.1:${api.port}` })),
  };
}

function run(code: string, services: FunctionHostServices = realServices(), inputs: Record<string, unknown> = {}) {
  const context = createInMemoryHandlerContext();
  const handler = withConfigParsing("function", createFunctionHandler({ services: () => services }));
  return { context, result: handler({ config: { code }, inputs, context }) };
}

describe("function block handler", () => {
  it("returns result, stdout and outputs, reading the block's inputs", async () => {
    const { result } = run(
      "console.log('upstream says', services.inputs.agent1.content); services.outputs('length', services.inputs.agent1.content.length); return 'ok'",
      realServices(),
      {
        agent1: { content: "hello" },
      },
    );
    expect((await result).output).toEqual({
      result: "ok",
      stdout: "upstream says hello\n",
      outputs: { length: 5 },
      sandbox: { queuedMs: 0, cpuTimeMs: expect.any(Number), timeoutMs: 5_000, memoryLimitMb: 64 },
    });
  });

  it("calls a model through services.agent and adds its usage to the block", async () => {
    const { result, context } = run(
      "const answer = await services.agent('Say hi', { model: 'offline/echo' }); return answer",
    );
    const { output, usage } = await result;
    const answer = output.result as { content: string; model: string; tokens: { total: number } };
    expect(answer.model).toBe("offline/echo");
    expect(answer.content.length).toBeGreaterThan(0);
    expect(usage?.tokens.total).toBe(answer.tokens.total);
    expect(usage?.tokens.total).toBeGreaterThan(0);
    const toolSpan = context.spans.find((span) => span.name === "services.agent");
    const modelSpan = context.spans.find((span) => span.kind === "model");
    expect(toolSpan?.kind).toBe("tool");
    expect(modelSpan?.parentId).toBe(toolSpan?.id);
  });

  it("fetches through the outbound guard, parsing JSON and redacting credentials in the trace", async () => {
    const { result, context } = run(`
      const response = await services.fetch('${api.origin}/items', { method: 'POST', headers: { Authorization: 'Bearer sk-live-123' }, body: { name: 'x' } });
      return response`);
    const { output } = await result;
    expect(output.result).toMatchObject({
      status: 200,
      ok: true,
      body: { got: "POST", body: { name: "x" }, auth: "Bearer sk-live-123" },
    });
    const span = context.spans.find((entry) => entry.name === "services.fetch");
    expect(JSON.stringify(span?.input)).not.toContain("sk-live-123");
  });

  it("lets the code catch a refused fetch, with the guard's error code", async () => {
    const { result } = run(`
      try { await services.fetch('http://169.254.169.254/latest/meta-data/'); return 'fetched' }
      catch (error) { return { code: error.code, message: error.message } }`);
    const { output } = await result;
    expect(output.result).toMatchObject({ code: "outbound_refused" });
    expect((output.result as { message: string }).message).toContain("cloud metadata");
  });

  it("fails the block with a clear message when a service call is malformed", async () => {
    await expect(run("await services.fetch(42)").result).rejects.toThrow(
      "services.fetch: the URL (first argument) must be a non-empty string",
    );
    await expect(run("await services.agent('hi', { temprature: 1 })").result).rejects.toThrow(
      /services\.agent: options .*temprature/,
    );
  });

  it("fails the block, keeping its console output, when an output is named __proto__, constructor or prototype", async () => {
    for (const name of ["__proto__", "constructor", "prototype"]) {
      const failure = await run(
        `console.log('scored'); services.outputs('score', 1); services.outputs('${name}', 2); return 'ok'`,
      ).result.catch((error) => error);
      expect(failure).toMatchObject({
        code: "invalid_service_call",
        message: `services.outputs("${name}", value): the name "${name}" ${RESERVED_NAME_MESSAGE}`,
        partialOutput: { stdout: "scored\n" },
      });
    }
  });

  it("runs without side effects in test mode", async () => {
    const simulated = createSimulatedServices({
      agent: "canned answer",
      fetch: { "https://api.example.com/order": { status: 201, body: { id: 7 } } },
    });
    const { result } = run(
      `
      const a = await services.agent('anything');
      const b = await services.fetch('https://api.example.com/order', { method: 'POST' });
      const c = await services.fetch('http://10.0.0.1/never');
      return { a: a.content, simulated: a.simulated, b: b.body, c: c.body }`,
      simulated,
    );
    expect((await result).output.result).toEqual({
      a: "canned answer",
      simulated: true,
      b: { id: 7 },
      c: { simulated: true, url: "http://10.0.0.1/never", method: "GET" },
    });
    expect(simulated.calls.map((call) => call.service)).toEqual(["agent", "fetch", "fetch"]);
  });

  it("reports the code's own error as a SandboxError", async () => {
    const error = await run("null.x").result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as Error).message).toMatch(/^TypeError: .*\(line 1\)$/);
  });

  it("shows what the code threw, and marks cut console output", async () => {
    await expect(run("throw { code: 42, reason: 'nope' }").result).rejects.toThrow(
      'Uncaught {"code":42,"reason":"nope"}',
    );
    const { output } = await run("console.log('x'.repeat(100000)); return 1").result;
    expect(output.stdoutTruncated).toBe(true);
    expect((output.stdout as string).endsWith("\n… [output truncated after 65,536 characters]")).toBe(true);
  });

  it("honours the block's time limit and stops on cancellation", async () => {
    const context = createInMemoryHandlerContext();
    const handler = withConfigParsing("function", createFunctionHandler({ services: realServices }));
    const timedOut = await handler({ config: { code: "for (;;) {}", timeoutMs: 200 }, inputs: {}, context }).catch(
      (caught: unknown) => caught,
    );
    expect((timedOut as SandboxError).code).toBe("sandbox_timeout");
    const cancelContext = createInMemoryHandlerContext();
    const running = handler({ config: { code: "for (;;) {}" }, inputs: {}, context: cancelContext });
    setTimeout(() => cancelContext.abort(), 200);
    await expect(running).rejects.toBeInstanceOf(CancelledError);
  });

  describe("above the server's maxima", () => {
    const capped = (maxTimeoutMs = 300) =>
      withConfigParsing(
        "function",
        createFunctionHandler({ services: realServices, maxima: { maxMemoryMb: 32, maxTimeoutMs } }),
      );

    it("runs with the maxima and says the limits were capped", async () => {
      const { output } = await capped()({
        config: { code: "return 1", timeoutMs: 5_000, memoryLimitMb: 64 },
        inputs: {},
        context: createInMemoryHandlerContext(),
      });
      expect(output.sandbox).toEqual({
        queuedMs: 0,
        cpuTimeMs: expect.any(Number),
        timeoutMs: 300,
        memoryLimitMb: 32,
        timeoutCapped: true,
        memoryLimitCapped: true,
      });
    });

    it("leaves limits within the maxima alone", async () => {
      const { output } = await capped()({
        config: { code: "return 1", timeoutMs: 200, memoryLimitMb: 16 },
        inputs: {},
        context: createInMemoryHandlerContext(),
      });
      expect(output.sandbox).toEqual({ queuedMs: 0, cpuTimeMs: expect.any(Number), timeoutMs: 200, memoryLimitMb: 16 });
    });

    it("stops at the capped time limit, naming what the block asked for and the server's maximum", async () => {
      const error = (await capped()({
        config: { code: "for (;;) {}", timeoutMs: 5_000 },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }).catch((caught: unknown) => caught)) as SandboxError;
      expect(error.code).toBe("sandbox_timeout");
      expect(error.message).toContain("time limit of 300 ms");
      expect(error.message).toContain(
        "the block asks for 5000 ms; this server allows at most 300 ms, TRELLIS_SANDBOX_MAX_TIMEOUT_MS",
      );
      expect(error.partialOutput).toMatchObject({ sandbox: { timeoutMs: 300, timeoutCapped: true } });
    });

    it("stops at the capped memory limit, naming what the block asked for and the server's maximum", async () => {
      const bomb = "const a = []; while (true) a.push('x'.repeat(10000) + a.length);";
      const error = (await capped(20_000)({
        config: { code: bomb, memoryLimitMb: 64, timeoutMs: 20_000 },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }).catch((caught: unknown) => caught)) as SandboxError;
      expect(error.code).toBe("sandbox_memory");
      expect(error.message).toContain("memory limit of 32 MB");
      expect(error.message).toContain(
        "the block asks for 64 MB; this server allows at most 32 MB, TRELLIS_SANDBOX_MAX_MEMORY_MB",
      );
    });
  });
});

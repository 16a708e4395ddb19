import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockExecutionError, OutboundRefusedError, TimeoutError } from "@/core";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { RESERVED_NAME_MESSAGE } from "@/contract";
import { apiConfigSchema } from "./definition";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { apiTraceInput, createApiHandler } from "./handler";

let server: LocalServer;
let flakyCalls = 0;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const url = new URL(request.url, "http://local");
    if (url.pathname === "/text") return response.end("plain words");
    if (url.pathname === "/missing") {
      response.writeHead(404, { "content-type": "application/json" });
      return response.end(JSON.stringify({ error: "no such item" }));
    }
    if (url.pathname === "/flaky") {
      flakyCalls++;
      response.writeHead(flakyCalls <= 2 ? 503 : 200, { "content-type": "application/json" });
      return response.end(JSON.stringify({ call: flakyCalls }));
    }
    if (url.pathname === "/deep") {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(`{"items":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    }
    if (url.pathname === "/slow") {
      setTimeout(() => response.end("late"), 2000).unref();
      return;
    }
    response.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "set-cookie": "session=abc123",
      "x-request-id": "r-1",
    });
    response.end(
      JSON.stringify({
        method: request.method,
        body: request.body,
        contentType: request.headers["content-type"] ?? null,
        auth: request.headers.authorization ?? null,
      }),
    );
  });
});

afterAll(() => server.close());

const noSleep = async () => undefined;

function call(config: Record<string, unknown>, allowHosts = `127.0.0.1:${server.port}`) {
  const handler = withConfigParsing(
    "api",
    createApiHandler({ fetch: createGuardedFetch({ allowHosts }), sleep: noSleep }),
  );
  return handler({ config, inputs: {}, context: createInMemoryHandlerContext() });
}

describe("api block handler", () => {
  it("returns status, headers and JSON data", async () => {
    const { output } = await call({ url: `${server.origin}/items`, headers: { Authorization: "Bearer sk-1" } });
    expect(output.status).toBe(200);
    expect(output.data).toEqual({ method: "GET", body: "", contentType: null, auth: "Bearer sk-1" });
    expect((output.headers as Record<string, string>)["x-request-id"]).toBe("r-1");
    expect((output.headers as Record<string, string>)["set-cookie"]).toBe("[redacted]");
  });

  it("sends an object body as JSON and a string body as is", async () => {
    const json = await call({ url: `${server.origin}/items`, method: "POST", body: { name: "widget" } });
    expect(json.output.data).toMatchObject({
      method: "POST",
      body: '{"name":"widget"}',
      contentType: "application/json",
    });
    const text = await call({
      url: `${server.origin}/items`,
      method: "PUT",
      body: "raw text",
      headers: { "Content-Type": "text/plain" },
    });
    expect(text.output.data).toMatchObject({ method: "PUT", body: "raw text", contentType: "text/plain" });
  });

  it("gives text data when the answer is not JSON", async () => {
    expect((await call({ url: `${server.origin}/text` })).output.data).toBe("plain words");
  });

  it("fails on a 4xx answer with the status and a snippet, never the query", async () => {
    const error = await call({ url: `${server.origin}/missing?api_key=sk-secret` }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockExecutionError);
    expect((error as BlockExecutionError).code).toBe("http_error");
    expect((error as Error).message).toBe(
      `GET 127.0.0.1:${server.port}/missing answered 404: {"error":"no such item"}`,
    );
  });

  it("retries 503 answers up to `retries` times", async () => {
    flakyCalls = 0;
    const { output } = await call({ url: `${server.origin}/flaky`, retries: 2 });
    expect(output).toMatchObject({ status: 200, data: { call: 3 } });
    flakyCalls = 0;
    await expect(call({ url: `${server.origin}/flaky`, retries: 0 })).rejects.toThrow("answered 503");
  });

  it("refuses private addresses unless OUTBOUND_ALLOW_HOSTS opens them", async () => {
    const before = server.received.length;
    await expect(call({ url: `${server.origin}/items` }, "")).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(call({ url: "http://169.254.169.254/latest/meta-data/" }, "")).rejects.toThrow("cloud metadata");
    expect(server.received.length).toBe(before);
  });

  it("stops at the block's timeout", async () => {
    await expect(call({ url: `${server.origin}/slow`, timeoutMs: 200 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it("refuses a body on GET with a clear error", async () => {
    await expect(call({ url: `${server.origin}/items`, body: { a: 1 } })).rejects.toThrow(
      "A GET request cannot have a body",
    );
  });

  it("fails with invalid_response, naming the limit, when the answer's JSON is nested too deep", async () => {
    const error = await call({ url: `${server.origin}/deep` }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockExecutionError);
    expect(error).toMatchObject({
      code: "invalid_response",
      message: `The JSON from 127.0.0.1:${server.port} is nested deeper than the limit of 100 levels (at items[0][0][0][0][0]…[0][0])`,
    });
  });

  it("refuses a Host header, even one a reference brought in at run time, and sends nothing", async () => {
    const before = server.received.length;
    const error = await call({ url: `${server.origin}/items`, headers: { Host: "internal.example" } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: "invalid_config",
      message: expect.stringContaining("headers.Host: is set by Trellis") as unknown,
    });
    expect(server.received.length).toBe(before);
  });
});

describe("api block config", () => {
  it("refuses headers the client sets itself and reserved names, naming each", () => {
    const headers = JSON.parse(
      '{"Accept":"text/plain","Content-Length":"3","connection":"close","__proto__":"x"}',
    ) as Record<string, string>;
    const parsed = apiConfigSchema.safeParse({ url: "https://api.example.com", headers });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["headers.__proto__", RESERVED_NAME_MESSAGE],
    ]);
    const framing = apiConfigSchema.safeParse({
      url: "https://api.example.com",
      headers: { Accept: "text/plain", "Content-Length": "3", connection: "close" },
    });
    expect(framing.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "headers.Content-Length",
      "headers.connection",
    ]);
  });
});

describe("apiTraceInput", () => {
  it("redacts credential headers and headers filled from secrets", () => {
    const config = apiConfigSchema.parse({
      url: "https://api.example.com",
      headers: {
        Authorization: "Bearer sk-live",
        "X-Api-Key": "k-1",
        "X-Tenant": "t-secret",
        Accept: "application/json",
      },
    });
    const traced = apiTraceInput(config, { headers: { "X-Tenant": "{{TENANT_TOKEN}}" } });
    expect(traced.headers).toEqual({
      Authorization: "[redacted]",
      "X-Api-Key": "[redacted]",
      "X-Tenant": "[redacted]",
      Accept: "application/json",
    });
    expect(JSON.stringify(traced)).not.toMatch(/sk-live|k-1|t-secret/);
  });
});

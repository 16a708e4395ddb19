import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { runModel } from "./model-call";
import { createModelRegistry } from "./model-registry";
import { PROVIDER_IDS, PROVIDERS } from "./provider-table";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";
import { TEST_WIRE_FORMATS, testServerEnv } from "./testing/test-model-registry";

/**
 * Provider endpoints are the operator's: a workspace cannot point the server's model calls at an
 * address of its choosing, every model call passes the outbound guard (the operator's own servers
 * allowed), and what a server answers is quoted only when it is the provider's own error.
 */

let llm: TestLlmServer;
/** A loopback service the server must never call on a workspace's word (an internal API, a metadata service). */
let internal: LocalServer;
/** What the next request to `impostor` answers. */
let impostorAnswer: { status: number; statusText?: string; headers?: Record<string, string>; body: string };
/** A server the operator configured that answers in no provider's format, or redirects. */
let impostor: LocalServer;

const CANARY = "ASIA-METADATA-CANARY-7f3e";

beforeAll(async () => {
  llm = await startTestLlmServer();
  internal = await startLocalServer((_request, response) => response.end(JSON.stringify({ AccessKeyId: CANARY })));
  impostor = await startLocalServer((_request, response) => {
    response.writeHead(impostorAnswer.status, impostorAnswer.statusText ?? "", {
      "content-type": "application/json",
      ...impostorAnswer.headers,
    });
    response.end(impostorAnswer.body);
  });
});
afterAll(async () => {
  await llm.close();
  await internal.close();
  await impostor.close();
});
beforeEach(() => {
  llm.requests.length = 0;
  internal.received.length = 0;
});

const hello = [{ role: "user" as const, content: "Hello there" }];
const envOf = (values: Record<string, string | undefined>) => (name: string) => values[name];

function call(registry: ReturnType<typeof createModelRegistry>, modelId: string) {
  const context = createInMemoryHandlerContext();
  return runModel({
    model: registry.resolve(modelId),
    messages: hello,
    hooks: { signal: context.signal, startSpan: context.startSpan },
  });
}

describe("a base URL stored as a workspace secret", () => {
  const withBaseUrl = PROVIDER_IDS.filter((provider) => PROVIDERS[provider].baseUrlVariable);

  it.each(withBaseUrl)("is refused by name for %s, and the address it names hears nothing", async (provider) => {
    const variable = PROVIDERS[provider].baseUrlVariable!;
    const workspace = envOf({
      [variable]: `${internal.origin}/v1`,
      ...(PROVIDERS[provider].apiKeyVariable ? { [PROVIDERS[provider].apiKeyVariable!]: "sk-own-0123456789" } : {}),
    });
    const registry = createModelRegistry({ env: { operator: envOf(testServerEnv(llm)), workspace } });
    const modelId = `${provider}/${TEST_WIRE_FORMATS[provider].sampleModel}`;
    let error: unknown;
    try {
      await call(registry, modelId);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "outbound_refused", provider });
    expect((error as Error).message).toContain(`stores a secret named ${variable}`);
    expect(internal.received).toEqual([]);
    expect(llm.requests).toEqual([]);
  });
});

describe("model calls through the outbound guard", () => {
  it("reach the operator's servers on loopback (OLLAMA_BASE_URL, OPENAI_COMPATIBLE_BASE_URL)", async () => {
    const registry = createModelRegistry({
      env: envOf({ OLLAMA_BASE_URL: llm.url, OPENAI_COMPATIBLE_BASE_URL: llm.openaiBaseUrl }),
    });
    llm.enqueue({ kind: "text", text: "from ollama" }, { kind: "text", text: "from vllm" });
    expect((await call(registry, "ollama/llama3.2")).text).toBe("from ollama");
    expect((await call(registry, "openai-compatible/meta/llama-3-8b")).text).toBe("from vllm");
    expect(llm.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
  });

  it("cannot be redirected by the operator's server to another local address", async () => {
    impostorAnswer = { status: 307, headers: { location: `${internal.origin}/latest/meta-data/` }, body: "" };
    const registry = createModelRegistry({
      env: envOf({ OPENAI_COMPATIBLE_BASE_URL: `${impostor.origin}/v1` }),
      retry: { maxRetries: 0 },
    });
    await expect(call(registry, "openai-compatible/any")).rejects.toMatchObject({ code: "outbound_refused" });
    expect(internal.received).toEqual([]);
  });
});

describe("what a failed call's answer adds to the run's error", () => {
  const registry = () =>
    createModelRegistry({
      env: envOf({ OPENAI_COMPATIBLE_BASE_URL: `${impostor.origin}/v1` }),
      retry: { maxRetries: 0 },
    });

  it("quotes nothing of an error answer that is not the provider's shape, nor its status text", async () => {
    impostorAnswer = {
      status: 500,
      statusText: `Status ${CANARY}`,
      body: JSON.stringify({ Code: "Success", AccessKeyId: CANARY, Token: "x".repeat(100) }),
    };
    const error = (await call(registry(), "openai-compatible/any").catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ code: "provider_unavailable", status: 500 });
    expect(error.message).toContain("(HTTP 500)");
    expect(error.message).toContain("its answer was not a provider error, so it is not shown");
    expect(error.message).not.toContain(CANARY);
  });

  it("quotes a successful answer in no provider's format not at all", async () => {
    impostorAnswer = { status: 200, body: JSON.stringify({ AccessKeyId: CANARY, Expiration: "2026-12-07T00:00:00Z" }) };
    const error = (await call(registry(), "openai-compatible/any").catch((caught: unknown) => caught)) as Error;
    expect(error.message).not.toContain(CANARY);
    expect(error).toMatchObject({ code: "invalid_response" });
  });

  it("quotes nothing of a stream that turns into something else mid-answer", async () => {
    const chunk = {
      id: "c1",
      object: "chat.completion.chunk",
      created: 0,
      model: "any",
      choices: [{ index: 0, delta: { content: "Hello" }, finish_reason: null }],
    };
    impostorAnswer = {
      status: 200,
      headers: { "content-type": "text/event-stream" },
      body: `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify({ choices: CANARY, AccessKeyId: CANARY })}\n\n`,
    };
    const error = (await call(registry(), "openai-compatible/any").catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).not.toContain(CANARY);
  });

  it("quotes the provider's own error message, cut to 500 characters", async () => {
    impostorAnswer = {
      status: 400,
      body: JSON.stringify({
        error: { message: `The model is busy. ${"m".repeat(2000)} END-OF-MESSAGE`, type: "invalid_request_error" },
      }),
    };
    const error = (await call(registry(), "openai-compatible/any").catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ code: "provider_error", status: 400 });
    expect(error.message).toContain("The model is busy. mmm");
    expect(error.message).not.toContain("END-OF-MESSAGE");
    expect(error.message.length).toBeLessThan(700);
  });
});

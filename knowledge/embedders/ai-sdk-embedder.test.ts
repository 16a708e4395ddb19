import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS, PROVIDERS } from "@/providers/provider-table";
import { createEmbedder } from "./ai-sdk-embedder";

/** A local server speaking OpenAI's /v1/embeddings, recording what it received. */
let server: Server;
let baseUrl: string;
const received: Array<{ path: string; authorization?: string; body: { model: string; input: string[] } }> = [];
let reportUsage = true;

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

async function answerEmbeddings(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(request)) as { model: string; input: string[] };
  received.push({ path: request.url ?? "", authorization: request.headers.authorization, body });
  if (body.input.some((text) => text.includes("fail"))) {
    response.writeHead(401, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        error: { message: "Incorrect API key provided: sk-test-secret-123456789", type: "invalid_request_error" },
      }),
    );
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      object: "list",
      model: body.model,
      data: body.input.map((text, index) => ({ object: "embedding", index, embedding: [text.length, 1, 0] })),
      ...(reportUsage
        ? { usage: { prompt_tokens: body.input.length * 10, total_tokens: body.input.length * 10 } }
        : {}),
    }),
  );
}

beforeAll(async () => {
  // A request the server fails on answers 500, which fails the test that sent it.
  server = createServer(
    (request, response) =>
      void answerEmbeddings(request, response).catch((error: unknown) => response.writeHead(500).end(String(error))),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = (values: Record<string, string>) => (name: string) => values[name];

describe("AI SDK embedders", () => {
  it("embeds through OpenAI at OPENAI_BASE_URL with the key, and prices the tokens the provider reported", async () => {
    received.length = 0;
    reportUsage = true;
    const embedder = createEmbedder("openai/text-embedding-3-small", {
      env: env({ OPENAI_API_KEY: "sk-test-secret-123456789", OPENAI_BASE_URL: baseUrl }),
    });
    const result = await embedder.embed(["alpha", "beta gamma"]);
    expect(received[0]).toMatchObject({
      path: "/v1/embeddings",
      authorization: "Bearer sk-test-secret-123456789",
      body: { model: "text-embedding-3-small", input: ["alpha", "beta gamma"] },
    });
    expect(result.embeddings).toEqual([
      [5, 1, 0],
      [10, 1, 0],
    ]);
    // text-embedding-3-small costs $0.02 per million tokens.
    expect(result.usage).toEqual({
      tokens: { prompt: 20, completion: 0, total: 20 },
      cost: { input: 0.0000004, output: 0, total: 0.0000004 },
    });
  });

  it("estimates tokens locally, and says so, when the server reports none; unknown models are unpriced", async () => {
    reportUsage = false;
    const embedder = createEmbedder("openai-compatible/nomic-embed-text", {
      env: env({ OPENAI_COMPATIBLE_BASE_URL: baseUrl }),
    });
    const result = await embedder.embed(["hello world"]);
    expect(result.usage).toEqual({
      tokens: { prompt: 2, completion: 0, total: 2 },
      cost: null,
      unpriced: true,
      estimated: true,
    });
    reportUsage = true;
  });

  it("talks to Ollama's OpenAI-compatible endpoint under OLLAMA_BASE_URL", async () => {
    received.length = 0;
    const embedder = createEmbedder("ollama/nomic-embed-text", {
      env: env({ OLLAMA_BASE_URL: baseUrl.replace(/\/v1$/, "") }),
    });
    await embedder.embed(["x"]);
    expect(received[0]?.path).toBe("/v1/embeddings");
  });

  it("names a missing key, an unknown provider, and scrubs keys from provider errors", async () => {
    expect(() => createEmbedder("openai/text-embedding-3-small", { env: env({}) })).toThrow(/OPENAI_API_KEY/);
    expect(() => createEmbedder("anthropic/claude", { env: env({}) })).toThrow(/no embedding models/);
    const embedder = createEmbedder("openai/text-embedding-3-small", {
      env: env({ OPENAI_API_KEY: "sk-test-secret-123456789", OPENAI_BASE_URL: baseUrl }),
    });
    const error = await embedder.embed(["fail"]).then(
      () => new Error("expected a failure"),
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toMatch(/rejected the API key/);
    expect(error.message).not.toContain("sk-test-secret-123456789");
  });

  it("builds an embedder for every provider with embedding models, and refuses the others by name", () => {
    const everySetting = Object.fromEntries(
      PROVIDER_IDS.flatMap((provider) => {
        const { apiKeyVariable, baseUrlVariable } = PROVIDERS[provider];
        return [
          ...(apiKeyVariable ? [[apiKeyVariable, "test-key-0123456789"]] : []),
          ...(baseUrlVariable ? [[baseUrlVariable, baseUrl]] : []),
        ];
      }),
    );
    for (const provider of PROVIDER_IDS) {
      const { label, embedding } = PROVIDERS[provider];
      const build = () => createEmbedder(`${provider}/some-embedding-model`, { env: env(everySetting) });
      if (embedding) expect(build().maxBatchSize, provider).toBe(embedding.maxBatchSize);
      else
        expect(build, provider).toThrow(
          expect.objectContaining({
            code: "invalid_embedding_model",
            provider,
            message: expect.stringContaining(`${label} has no embedding models; use offline/hash-embed, openai/…`),
          }),
        );
    }
  });
});

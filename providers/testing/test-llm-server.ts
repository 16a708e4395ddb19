import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { countTokens } from "../token-counter";
import { chunksOf } from "../offline/offline-model";
import { defaultResponse } from "./default-responder";
import type { ParsedLlmRequest, RecordedRequest, ScriptedResponse, WireReply } from "./scripted-response";
import { parseAnthropicRequest, writeAnthropicError, writeAnthropicJson, writeAnthropicStream } from "./wire-anthropic";
import { parseGeminiRequest, writeGeminiError, writeGeminiJson, writeGeminiStream } from "./wire-gemini";
import { parseOpenAiRequest, writeOpenAiError, writeOpenAiJson, writeOpenAiStream } from "./wire-openai";

export type { ParsedLlmRequest, RecordedRequest, ScriptedResponse, ScriptedUsage } from "./scripted-response";

/**
 * A real HTTP server speaking OpenAI Chat Completions, Anthropic Messages and Gemini
 * generateContent, for tests that drive the real AI SDK clients through their base URLs.
 * Each request takes the next queued response (any protocol), or the default responder's.
 */
export interface TestLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Base URLs to give the AI SDK clients (and OPENAI_BASE_URL and friends). */
  openaiBaseUrl: string;
  anthropicBaseUrl: string;
  googleBaseUrl: string;
  /** Requests received so far, oldest first. */
  requests: RecordedRequest[];
  enqueue(...responses: ScriptedResponse[]): void;
  /** Responses still queued. */
  pending(): number;
  close(): Promise<void>;
}

export interface TestLlmServerOptions {
  port?: number;
  host?: string;
  /** Pause between streamed chunks of default answers. */
  defaultDelayMs?: number;
  defaultResponder?: (request: ParsedLlmRequest) => ScriptedResponse;
}

type Protocol = ParsedLlmRequest["protocol"];

interface Route {
  protocol: Protocol;
  parse(body: any): ParsedLlmRequest;
}

function routeOf(method: string, path: string): Route | undefined {
  if (method !== "POST") return undefined;
  if (/\/chat\/completions$/.test(path)) return { protocol: "openai", parse: parseOpenAiRequest };
  if (/\/messages$/.test(path)) return { protocol: "anthropic", parse: parseAnthropicRequest };
  const gemini = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
  if (gemini) {
    const model = decodeURIComponent(gemini[1] ?? "");
    const stream = gemini[2] === "streamGenerateContent";
    return { protocol: "gemini", parse: (body) => parseGeminiRequest(body, model, stream) };
  }
  return undefined;
}

/**
 * The providers' model lists, which "test connection" asks for: a key with "invalid" in it is
 * refused with 401, as a provider refuses a wrong key; any other (or none) gets a one-model list.
 */
function answerModelList(request: IncomingMessage, response: ServerResponse): void {
  const sent = [request.headers.authorization, request.headers["x-api-key"], request.headers["x-goog-api-key"]];
  if (sent.some((value) => String(value ?? "").includes("invalid"))) {
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ object: "list", data: [{ id: "test-model", object: "model" }], models: [] }));
}

async function readJson(request: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

const writers = {
  openai: { json: writeOpenAiJson, stream: writeOpenAiStream, error: writeOpenAiError },
  anthropic: { json: writeAnthropicJson, stream: writeAnthropicStream, error: writeAnthropicError },
  gemini: { json: writeGeminiJson, stream: writeGeminiStream, error: writeGeminiError },
} as const;

let replyCounter = 0;

function toWireReply(
  response: Extract<ScriptedResponse, { kind: "text" | "json" | "tool-calls" | "broken-stream" | "stalled-stream" }>,
  request: ParsedLlmRequest,
): WireReply {
  const text =
    response.kind === "json"
      ? JSON.stringify(response.value)
      : response.kind === "tool-calls"
        ? (response.text ?? "")
        : response.text;
  const toolCalls =
    response.kind === "tool-calls"
      ? response.calls.map((call, index) => ({
          id: call.id ?? `call_${++replyCounter}_${index}`,
          name: call.name,
          arguments: JSON.stringify(call.arguments ?? {}),
        }))
      : [];
  const reported = "usage" in response ? response.usage : undefined;
  const usage =
    reported === null
      ? null
      : (reported ?? {
          prompt: countTokens(request.allText),
          completion: countTokens(text + toolCalls.map((call) => call.arguments).join("")),
        });
  const chunks = "chunks" in response && response.chunks ? response.chunks : chunksOf(text);
  return {
    id: `test-${++replyCounter}`,
    model: request.model,
    text,
    chunks,
    toolCalls,
    usage,
    finishReason:
      toolCalls.length > 0 ? "tool-calls" : response.kind === "text" ? (response.finishReason ?? "stop") : "stop",
    delayMs: response.kind === "text" || response.kind === "stalled-stream" ? (response.delayMs ?? 0) : 0,
  };
}

export async function startTestLlmServer(options: TestLlmServerOptions = {}): Promise<TestLlmServer> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const respondByDefault =
    options.defaultResponder ?? ((request: ParsedLlmRequest) => defaultResponse(request, options.defaultDelayMs ?? 0));

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const method = request.method ?? "GET";
    if (method === "GET" && (path === "/" || path === "/health")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: true, pending: queue.length }));
      return;
    }
    if (method === "GET" && /\/(models|api\/tags)$/.test(path)) return answerModelList(request, response);
    const route = routeOf(method, path);
    if (!route) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `The test LLM server does not serve ${method} ${path}` } }));
      return;
    }
    const body = await readJson(request);
    const parsed = route.parse(body);
    requests.push({ protocol: route.protocol, method, path, headers: { ...request.headers }, body, parsed });
    const scripted = queue.shift() ?? respondByDefault(parsed);
    const writer = writers[route.protocol];
    switch (scripted.kind) {
      case "hang":
        return;
      case "error":
        writer.error(
          response,
          scripted.status,
          scripted.message ?? `Scripted error ${scripted.status}`,
          scripted.headers ?? {},
        );
        return;
      case "broken-stream":
        await writer.stream(response, toWireReply(scripted, parsed), { breakAfterText: true });
        return;
      case "stalled-stream":
        await writer.stream(response, toWireReply(scripted, parsed), { stallAfterText: true });
        return;
      default: {
        const reply = toWireReply(scripted, parsed);
        if (parsed.stream) await writer.stream(response, reply);
        else writer.json(response, reply);
      }
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: `${url}/v1`,
    googleBaseUrl: `${url}/v1beta`,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

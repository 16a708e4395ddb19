import { asSchema } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { createHttpRequestToolProvider } from "../http_request";
import { createToolRegistry } from "../registry";
import type { ToolContext } from "../types";
import { createWebPageToolProvider } from "../web_page";
import { createRunFunctionToolProvider } from "./run-function-tool";

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    if (request.url === "/page") {
      response.writeHead(200, { "content-type": "text/html" });
      return response.end("<html><head><title>Prices</title></head><body><p>Widgets cost 4 dollars.</p></body></html>");
    }
    response.writeHead(200, { "content-type": "application/json", "set-cookie": "s=1" });
    response.end(JSON.stringify({ price: 4, auth: request.headers.authorization ?? null }));
  });
});

afterAll(() => server.close());

const context: ToolContext = {
  runId: "r",
  workflowId: "w",
  blockId: "b",
  signal: new AbortController().signal,
  depth: 0,
  variables: {},
  toolSpan: () => undefined,
  startSpan: () => {
    throw new Error("not used");
  },
};

async function toolsFor(entries: unknown[], allowHosts = `127.0.0.1:${server.port}`) {
  const fetch = createGuardedFetch({ allowHosts });
  const registry = createToolRegistry([
    createHttpRequestToolProvider({ fetch }),
    createWebPageToolProvider({ fetch }),
    createRunFunctionToolProvider({ fetch }),
  ]);
  return registry.resolve(toolEntries(entries), context);
}

function execute(tools: Awaited<ReturnType<typeof toolsFor>>, name: string, input: unknown) {
  return tools[name]!.execute!(input as never, { toolCallId: "call-1", messages: [] } as never);
}

describe("built-in HTTP, web page and function tools", () => {
  it("http_request calls through the guard, adds fixed headers and redacts credentials in the answer", async () => {
    const tools = await toolsFor([{ type: "http_request", params: { headers: { Authorization: "Bearer fixed" } } }]);
    const answer = await execute(tools, "http_request", { url: `${server.origin}/price` });
    expect(answer).toMatchObject({
      status: 200,
      body: { price: 4, auth: "Bearer fixed" },
      headers: { "set-cookie": "[redacted]" },
    });
  });

  it("http_request with a pre-filled URL and method calls only that, and does not ask the model for them", async () => {
    const tools = await toolsFor([
      { type: "http_request", name: "price_api", params: { url: `${server.origin}/price`, method: "GET" } },
    ]);
    const schema = (await asSchema(tools.price_api!.inputSchema).jsonSchema) as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(["headers", "body"]);
    expect(schema.required).toEqual([]);
    expect(tools.price_api!.description).toContain(`GET to ${server.origin}/price`);
    const answer = await execute(tools, "price_api", { url: "https://elsewhere.example/", method: "DELETE" });
    expect(answer).toMatchObject({ status: 200, body: { price: 4 } });
  });

  it("http_request refuses private addresses that are not allowed", async () => {
    const tools = await toolsFor(["http_request"], "");
    await expect(execute(tools, "http_request", { url: "http://169.254.169.254/latest/meta-data/" })).rejects.toThrow(
      "cloud metadata",
    );
  });

  it("web_page returns the readable text", async () => {
    const tools = await toolsFor(["web_page"]);
    expect(await execute(tools, "web_page", { url: `${server.origin}/page` })).toMatchObject({
      title: "Prices",
      text: "Widgets cost 4 dollars.",
    });
  });

  it("run_function runs the configured code in the sandbox with the model's arguments", async () => {
    const tools = await toolsFor([
      {
        type: "run_function",
        name: "total_price",
        params: {
          description: "Multiplies the unit price by a quantity",
          parameters: { type: "object", properties: { quantity: { type: "number" } }, required: ["quantity"] },
          code: `const { body } = await services.fetch('${server.origin}/price'); console.log('unit', body.price); return body.price * services.inputs.quantity;`,
        },
      },
    ]);
    expect(await execute(tools, "total_price", { quantity: 3 })).toEqual({ result: 12, stdout: "unit 4\n" });
  });

  it("run_function runs Python when its language says so, with the same services", async () => {
    const tools = await toolsFor([
      {
        type: "run_function",
        name: "total_price",
        params: {
          language: "python",
          parameters: { type: "object", properties: { quantity: { type: "number" } }, required: ["quantity"] },
          code: `answer = await services.fetch('${server.origin}/price')\nprint('unit', answer['body']['price'])\nreturn answer['body']['price'] * services.inputs['quantity']`,
        },
      },
    ]);
    expect(await execute(tools, "total_price", { quantity: 3 })).toEqual({ result: 12, stdout: "unit 4\n" });
  }, 60_000);

  it("run_function without code, or with a language it does not know, is a clear configuration error", async () => {
    await expect(toolsFor(["run_function"])).rejects.toThrow("needs params.code");
    await expect(toolsFor([{ type: "run_function", params: { code: "puts 1", language: "ruby" } }])).rejects.toThrow(
      'params.language must be "javascript" or "python", not "ruby"',
    );
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowDocumentSchema, type ApiRun, type ApiSpan, type WorkflowDocumentInput } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { runEndpoints } from "@/lib/runs/run-endpoints";
import { createGuardedFetch } from "@/net";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { createRuntime } from "./runtime";

/**
 * Python Function blocks through the real runtime: `services.fetch` through the outbound guard to
 * an allowed local server and `services.agent` against the test LLM server; in a test run both
 * behave exactly as they do for a JavaScript block doing the same.
 */

let database: TestDatabase;
let llm: TestLlmServer;
let server: Server;
let serverUrl: string;
let ws: string;
const received: Array<{ method: string; url: string; body: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  llm = await startTestLlmServer();
  ws = await database.createWorkspace();
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", body });
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ live: true, path: request.url }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await llm?.close();
  await database?.close();
});

function makeRuntime() {
  const env = testServerEnv(llm);
  return createRuntime({
    repositories: database.repositories,
    knowledgeSearch: async () => ({ results: [] }) as never,
    processEnv: (name) => env[name],
    guardedFetch: createGuardedFetch({ allowHosts: new URL(serverUrl).host }),
  });
}

const at = (x: number) => ({ position: { x, y: 0 }, parentId: null, enabled: true });

const python = () => `
order = await services.fetch("${serverUrl}/orders", method="POST", body={"item": <Start.item>})
answer = await services.agent("Name the order " + str(order["body"]["path"]), {"model": "openai/gpt-4o-mini"})
return {"status": order["status"], "body": order["body"], "answer": answer["content"], "simulated": order.get("simulated")}`;

const javascript = () => `
const order = await services.fetch("${serverUrl}/orders", { method: "POST", body: { item: <Start.item> } });
const answer = await services.agent("Name the order " + String(order.body.path), { model: "openai/gpt-4o-mini" });
return { status: order.status, body: order.body, answer: answer.content, simulated: order.simulated ?? null };`;

function workflow(): WorkflowDocumentInput {
  const sample = { http: { status: 201, body: { path: "/sample" } } };
  return {
    name: "Python and JavaScript",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        ...at(0),
        config: { inputs: [{ name: "item", type: "string" }] },
      },
      {
        id: "py",
        type: "function",
        name: "Py",
        ...at(200),
        config: { language: "python", code: python() },
        testing: sample,
      },
      { id: "js", type: "function", name: "Js", ...at(400), config: { code: javascript() }, testing: sample },
    ],
    edges: [
      { id: "e1", source: "start", target: "py" },
      { id: "e2", source: "py", target: "js" },
    ],
  };
}

async function startRun(workflowId: string, body: Record<string, unknown>): Promise<ApiRun> {
  const runtime = makeRuntime();
  const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
  const response = await endpoints.start(
    new Request("http://localhost/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, wait: true }),
    }),
    { id: workflowId },
    testMember(ws),
  );
  expect(response.status).toBe(200);
  const run = (await response.json()) as ApiRun;
  // Say why a run failed, so a failure reads without a debugger.
  if (run.status !== "succeeded") expect(run.spans.map((span) => span.error).filter(Boolean)).toEqual([]);
  return run;
}

const blockOutput = (run: ApiRun, blockId: string) =>
  (run.spans.find((span) => span.kind === "block" && span.blockId === blockId) as ApiSpan).output as {
    result: Record<string, unknown>;
  };

describe("a Python Function block", () => {
  it("fetches an allowed local server through the guard and asks the test LLM server, as JavaScript does", async () => {
    const stored = await database.repositories.workflows.create(ws, workflowDocumentSchema.parse(workflow()));
    received.length = 0;
    llm.enqueue({ kind: "text", text: "Order one" }, { kind: "text", text: "Order one" });

    const run = await startRun(stored.id, { input: { item: "book" } });

    expect(run.status).toBe("succeeded");
    expect(received).toEqual([
      { method: "POST", url: "/orders", body: '{"item":"book"}' },
      { method: "POST", url: "/orders", body: '{"item":"book"}' },
    ]);
    const python = blockOutput(run, "py").result;
    expect(python).toEqual({
      status: 200,
      body: { live: true, path: "/orders" },
      answer: "Order one",
      simulated: null,
    });
    expect(blockOutput(run, "js").result).toEqual(python);
    const asked = llm.requests.slice(-2).map((request) => JSON.stringify(request.body));
    expect(asked[0]).toContain("Name the order /orders");
    expect(asked[1]).toContain("Name the order /orders");
  }, 120_000);

  it("in a test run, gets the sample for services.fetch and sends nothing, exactly as a JavaScript block", async () => {
    const stored = await database.repositories.workflows.create(ws, workflowDocumentSchema.parse(workflow()));
    received.length = 0;
    llm.enqueue({ kind: "text", text: "Sample order" }, { kind: "text", text: "Sample order" });

    const run = await startRun(stored.id, { input: { item: "book" }, test: true });

    expect(run.status).toBe("succeeded");
    expect(run.test).toBe(true);
    expect(received).toEqual([]);
    const python = blockOutput(run, "py").result;
    expect(python).toEqual({ status: 201, body: { path: "/sample" }, answer: "Sample order", simulated: "sample" });
    expect(blockOutput(run, "js").result).toEqual(python);
    const fetchSpans = run.spans.filter((span) => span.kind === "tool" && span.name === "services.fetch");
    expect(fetchSpans.map((span) => span.simulated)).toEqual(["sample", "sample"]);
  }, 120_000);
});

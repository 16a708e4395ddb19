import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowDocumentSchema, type AskList, type ErrorBody } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { createRuntime } from "@/lib/runtime/runtime";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";
import { askEndpoints, type AskEndpoints } from "./ask-endpoints";

/** Asks through the run service on the database: parallel asks, typed fields, and the durable timeout. */

let kit: RunTestKit;
let endpoints: AskEndpoints;
let member: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  member = testMember(await kit.database.createWorkspace(), "editor", { email: "lead@example.com" });
  endpoints = askEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
});
afterAll(() => kit?.close());

async function create(blocks: unknown[], edges: Array<[string, string, string?]>): Promise<string> {
  const document = workflowDocumentSchema.parse({
    name: `Asks ${Math.random()}`,
    blocks,
    edges: edges.map(([source, target, sourceHandle], index) => ({
      id: `e${index}`,
      source,
      target,
      sourceHandle: sourceHandle ?? "out",
    })),
  });
  return (await kit.database.repositories.workflows.create(member.workspace.id, document)).id;
}

const start = { id: "start", type: "start", name: "Start", config: {} };
const respond = (id: string, data: unknown) => ({ id, type: "response", name: id, config: { data } });

async function asksOnceParked(runId: string, count: number): Promise<AskList["asks"]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await kit.database.repositories.runs.get(member.workspace.id, runId);
    if (run.status === "paused" && run.worker === null) {
      const response = await endpoints.list(new Request("http://localhost/"), { id: runId }, member);
      const { asks } = (await response.json()) as AskList;
      if (asks.length === count) return asks;
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} has not parked with ${count} asks (status ${run.status})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function answer(runId: string, spanId: string, body: unknown): Promise<Response> {
  const request = new Request("http://localhost/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return endpoints.answer(request, { id: runId, spanId }, member);
}

describe("asks", () => {
  it("waits on two asks of parallel branches at once; each answer goes on with its own branch", async () => {
    const workflowId = await create(
      [
        start,
        {
          id: "legal",
          type: "ask",
          name: "Legal",
          config: { question: "Legal ok?", choices: [{ id: "ok", label: "OK" }] },
        },
        {
          id: "budget",
          type: "ask",
          name: "Budget",
          config: { question: "Budget?", fields: [{ name: "amount", type: "number", label: "Amount" }] },
        },
        {
          id: "join",
          type: "function",
          name: "Join",
          config: { code: "return { legal: <Legal.choice>, amount: <Budget.fields>.amount }" },
        },
      ],
      [
        ["start", "legal"],
        ["start", "budget"],
        ["legal", "join", "choice:ok"],
        ["budget", "join"],
      ],
    );
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    const asks = await asksOnceParked(live.runId, 2);
    const legal = asks.find((ask) => ask.blockId === "legal")!;
    const budget = asks.find((ask) => ask.blockId === "budget")!;

    const wrongType = await answer(live.runId, budget.spanId, { fields: { amount: "lots" } });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as ErrorBody).error.details).toEqual([
      { path: "fields.amount", message: "must be a number, got string" },
    ]);
    const missing = await answer(live.runId, legal.spanId, {});
    expect(((await missing.json()) as ErrorBody).error.details).toEqual([
      { path: "choice", message: 'is required: one of "ok"' },
    ]);

    expect((await answer(live.runId, legal.spanId, { choice: "ok" })).status).toBe(202);
    // The run went on with the legal branch and parked again, the budget ask still waiting under its span.
    const [still] = await asksOnceParked(live.runId, 1);
    expect(still?.spanId).toBe(budget.spanId);
    expect((await answer(live.runId, budget.spanId, { fields: { amount: 120 } })).status).toBe(202);
    const run = await live.done;
    expect(run.status).toBe("succeeded");
    expect(run.output).toMatchObject({ result: { legal: "ok", amount: 120 } });
  });

  it("times a parked ask out through the sweep, even when no process watched its deadline, and goes down the timeout path", async () => {
    const workflowId = await create(
      [
        start,
        { id: "confirm", type: "ask", name: "Confirm", config: { question: "Still there?", timeoutMs: 60_000 } },
        respond("answered", "answered"),
        respond("expired", "nobody answered"),
      ],
      [
        ["start", "confirm"],
        ["confirm", "answered"],
        ["confirm", "expired", "timeout"],
      ],
    );
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    const [ask] = await asksOnceParked(live.runId, 1);
    expect(await kit.runtime.runs.asks.timeOutDue(new Date(Date.parse(ask!.timeoutAt!) - 10))).toBe(0);
    // As a restarted process's lease loop sees it: the deadline has passed.
    expect(await kit.runtime.runs.asks.timeOutDue(new Date(Date.parse(ask!.timeoutAt!) + 1))).toBe(1);
    const run = await live.done;
    expect(run).toMatchObject({ status: "succeeded", output: "nobody answered" });
    const late = await answer(live.runId, ask!.spanId, {});
    expect(late.status).toBe(409);
    expect(((await late.json()) as ErrorBody).error.message).toContain("timed out");
  });

  it("times a parked ask out at its deadline in the process that parked it", async () => {
    const workflowId = await create(
      [
        start,
        { id: "confirm", type: "ask", name: "Confirm", config: { question: "Quick?", timeoutMs: 1000 } },
        respond("expired", "too slow"),
      ],
      [
        ["start", "confirm"],
        ["confirm", "expired", "timeout"],
      ],
    );
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    await asksOnceParked(live.runId, 1);
    expect(await live.done).toMatchObject({ status: "succeeded", output: "too slow" });
  });

  it("survives a restart: a new run service (another process) lists the paused ask, takes its answer and goes on", async () => {
    const workflowId = await create(
      [
        start,
        { id: "q", type: "ask", name: "Q", config: { question: "Go?", choices: [{ id: "go", label: "Go" }] } },
        respond("done", "went on"),
      ],
      [
        ["start", "q"],
        ["q", "done", "choice:go"],
      ],
    );
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    const [ask] = await asksOnceParked(live.runId, 1);
    const restarted = createRuntime({
      repositories: kit.database.repositories,
      processEnv: () => undefined,
      knowledgeSearch: async () => {
        throw new Error("not used");
      },
    });
    const again = askEndpoints(() => ({ runs: restarted.runs, repositories: kit.database.repositories }));
    const listed = (await (
      await again.list(new Request("http://localhost/"), { id: live.runId }, member)
    ).json()) as AskList;
    expect(listed.asks.map((item) => item.spanId)).toEqual([ask!.spanId]);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ choice: "go" }),
    });
    expect((await again.answer(request, { id: live.runId, spanId: ask!.spanId }, member)).status).toBe(202);
    const deadline = Date.now() + 10_000;
    let run = await kit.database.repositories.runs.get(member.workspace.id, live.runId);
    while (run.status !== "succeeded" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      run = await kit.database.repositories.runs.get(member.workspace.id, live.runId);
    }
    expect(run).toMatchObject({ status: "succeeded", output: "went on" });
  });

  it("answers 404 for an ask the run never had", async () => {
    const workflowId = await create(
      [start, { id: "q", type: "ask", name: "Q", config: { question: "?" } }],
      [["start", "q"]],
    );
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    await asksOnceParked(live.runId, 1);
    expect((await answer(live.runId, "no-such-span", {})).status).toBe(404);
    await kit.runtime.runs.cancel(member.workspace.id, live.runId);
  });
});

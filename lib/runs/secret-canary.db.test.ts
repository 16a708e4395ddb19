import { Buffer } from "node:buffer";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunEvent } from "@/contract";
import { SecretRedactor } from "@/executor";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { parseSse, startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";
import { captureLogs, type CapturedLogs } from "@/lib/observability/__fixtures__/captured-logs";
import { approvalEndpoints } from "./approval-endpoints";
import { RunChannel } from "./run-channel";
import { RunRecorder } from "./run-recorder";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Done-when of issue 13: a canary secret never appears in any stored or served byte of a run that
 * used it: not in a prompt's trace, an API call's, the streamed text, the output, an error, an
 * approval request, the database rows or the log, in clear or in a common transformed form.
 */

const CANARY = 'Cnry-7Qx+4f/Z="k9w';
const reversed = (text: string) => [...text].reverse().join("");
const FORMS: Record<string, string> = {
  clear: CANARY,
  upper: CANARY.toUpperCase(),
  lower: CANARY.toLowerCase(),
  reversed: reversed(CANARY),
  url: encodeURIComponent(CANARY),
  base64: Buffer.from(CANARY).toString("base64"),
  base64url: Buffer.from(CANARY).toString("base64url"),
  json: JSON.stringify(CANARY).slice(1, -1),
};

function expectNoCanary(what: string, text: string) {
  const haystack = text.toLowerCase();
  for (const [form, value] of Object.entries(FORMS))
    expect(haystack.includes(value.toLowerCase()), `${what} holds the canary (${form})`).toBe(false);
}

let kit: RunTestKit;
let target: LocalServer;
let ws: string;
let member: Member;
const logged: string[] = [];
let logs: CapturedLogs;

beforeAll(async () => {
  target = await startLocalServer((request, response) => {
    if (request.url.startsWith("/fail")) {
      // An error answer quoting the key back in several forms: the block's error message holds them.
      response.statusCode = 500;
      response.setHeader("content-type", "text/plain");
      response.end(`rejected ${reversed(CANARY)} / ${CANARY.toUpperCase()} / ${FORMS.base64} / ${FORMS.url}`);
      return;
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ authorization: request.headers.authorization, body: request.body }));
  });
  kit = await startRunTestKit({ guardedFetch: createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` }) });
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
  logs = captureLogs();
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
    });
  }
  const stored = await secretEndpoints(
    () => kit.database.repositories.secrets,
    auditRequestsTo(() => kit.database.prisma),
  ).put(
    new Request("http://localhost/api/secrets/CANARY", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value: CANARY }),
    }),
    { name: "CANARY" },
    member,
  );
  expect(stored.status).toBe(204);
});
afterAll(async () => {
  vi.restoreAllMocks();
  logs?.stop();
  await kit?.close();
  await target?.close();
});
afterEach(() => {
  kit.server.requests.length = 0;
});

async function createWorkflow(
  blocks: Array<Record<string, unknown>>,
  edges: Array<[string, string, string?]>,
): Promise<string> {
  const document = {
    name: "Canary",
    description: "",
    variables: {},
    blocks: blocks.map((block, index) => ({ name: block.id, position: { x: index * 200, y: 0 }, ...block })),
    edges: edges.map(([source, targetId, handle], index) => ({
      id: `e${index}`,
      source,
      target: targetId,
      sourceHandle: handle ?? "out",
    })),
  };
  return (await kit.database.repositories.workflows.create(ws, document as never)).id;
}

const start = { id: "start", name: "Start", type: "start", config: { inputs: [] } };
const local = (path: string) => `${target.origin}${path}`;

function startRun(workflowId: string, body: unknown, accept = "application/json") {
  return kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    member,
  );
}
const getRun = async (runId: string) =>
  (await kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, member)).text();
const replay = async (runId: string) =>
  (await kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`), { id: runId }, member)).text();

/** Every stored row of the run tables, as the database holds it. */
async function storedRows(): Promise<string> {
  const rows: string[] = [];
  for (const table of ["runs", "spans", "run_events"]) {
    const result = await kit.database.prisma.$queryRawUnsafe<Array<{ row: string }>>(
      `SELECT row_to_json(t)::text AS row FROM ${table} t`,
    );
    expect(result.length, table).toBeGreaterThan(0);
    rows.push(...result.map((row) => row.row));
  }
  return rows.join("\n");
}

describe("a canary secret", () => {
  it("is used by a prompt, an API call and a Response, streamed and quoted in errors, and never stored or served", async () => {
    const workflowId = await createWorkflow(
      [
        start,
        {
          id: "agent",
          type: "agent",
          config: { model: "openai/gpt-4o-mini", userPrompt: "Check the key {{CANARY}} please" },
        },
        {
          id: "api",
          type: "api",
          config: {
            url: local("/echo"),
            method: "POST",
            headers: { Authorization: "Bearer {{CANARY}}" },
            body: { key: "{{CANARY}}", said: "<agent.content>" },
          },
        },
        { id: "rejecting", type: "api", config: { url: local("/fail"), method: "POST", body: { key: "{{CANARY}}" } } },
        {
          id: "response",
          type: "response",
          config: {
            data: {
              key: "{{CANARY}}",
              agent: "<agent.content>",
              echoed: "<api.data>",
              failure: "<rejecting.error.message>",
            },
          },
        },
      ],
      [
        ["start", "agent"],
        ["agent", "api"],
        ["api", "rejecting"],
        ["rejecting", "response", "error"],
      ],
    );
    const upper = CANARY.toUpperCase();
    kit.server.enqueue({
      kind: "text",
      text: `Your key ${CANARY}, shouted ${upper}, encoded ${FORMS.base64}.`,
      chunks: [
        "Your key ",
        CANARY.slice(0, 5),
        CANARY.slice(5, 11),
        `${CANARY.slice(11)}, shouted `,
        upper.slice(0, 8),
        `${upper.slice(8)}, encoded `,
        FORMS.base64!,
        ".",
      ],
    });

    const streamed = await (await startRun(workflowId, {}, "text/event-stream")).text();
    const runId = /"runId":"([^"]+)"/.exec(streamed)?.[1];
    expect(runId).toBeDefined();

    // The secret was really used: the model got it in its prompt, the API in its header and body.
    expect(kit.server.requests[0]!.parsed.allText).toContain(CANARY);
    expect(target.received[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(JSON.parse(target.received[0]!.body)).toMatchObject({ key: CANARY });

    const answer = await getRun(runId!);
    expect(JSON.parse(answer)).toMatchObject({ status: "succeeded", output: { key: "[secret:CANARY]" } });
    expect(streamed).toContain("[secret:CANARY]");
    expect(streamed).toContain("event: block.delta");
    expect(streamed).toContain("event: block.failed");

    expectNoCanary("the served event stream", streamed);
    // The canary was streamed split over several deltas: joined up again they still do not hold it.
    const deltas = parseSse(streamed).flatMap((event) =>
      event.event === "block.delta" ? [String(event.data.text)] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Your key [secret:CANARY], shouted [secret:CANARY], encoded [secret:CANARY].");
    expectNoCanary("the GET run answer", answer);
    expectNoCanary("the replayed event stream", await replay(runId!));
  });

  it("fails a run with the canary in its error, and the error is masked everywhere", async () => {
    const workflowId = await createWorkflow(
      [
        start,
        {
          id: "rejecting",
          type: "api",
          config: { url: local("/fail"), method: "POST", headers: { "X-Key": "{{CANARY}}" } },
        },
      ],
      [["start", "rejecting"]],
    );
    const answer = await (await startRun(workflowId, { wait: true })).text();
    const run = JSON.parse(answer) as { id: string; status: string; error: { message: string } };
    expect(run.status).toBe("failed");
    expect(run.error.message).toContain("answered 500: rejected [secret:CANARY]");
    expectNoCanary("the failed run's answer", answer);
    expectNoCanary("the failed run's events", await replay(run.id));
  });

  it("masks a tool call waiting for approval whose arguments hold the canary", async () => {
    const workflowId = await createWorkflow(
      [
        start,
        {
          id: "agent",
          type: "agent",
          config: {
            model: "openai/gpt-4o-mini",
            userPrompt: "Compute with {{CANARY}}",
            tools: [{ type: "calculator", requireApproval: true }],
          },
        },
      ],
      [["start", "agent"]],
    );
    kit.server.enqueue(
      {
        kind: "tool-calls",
        calls: [{ id: "call_canary", name: "calculator", arguments: { expression: `len("${CANARY}")` } }],
      },
      { kind: "text", text: "Denied, fine." },
    );
    const live = await kit.runtime.runs.start(ws, workflowId);
    const requested = await new Promise<RunEvent>((resolve) => {
      const stop = live.channel!.subscribe(0, ({ event }) => {
        if (event.type === "tool.approval.requested") {
          queueMicrotask(() => stop());
          resolve(event);
        }
      });
    });
    expect(JSON.stringify(requested)).toContain("[secret:CANARY]");
    const approvals = approvalEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
    const listed = await (
      await approvals.list(new Request(`http://localhost/api/runs/${live.runId}/approvals`), { id: live.runId }, member)
    ).text();
    expect(listed).toContain("call_canary");
    const decided = await approvals.decide(
      new Request(`http://localhost/api/runs/${live.runId}/approvals/call_canary`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ approved: false }),
      }),
      { id: live.runId, toolCallId: "call_canary" },
      member,
    );
    expect(decided.status).toBe(200);
    expect((await live.done).status).toBe("succeeded");
    expectNoCanary("the approval request event", JSON.stringify(requested));
    expectNoCanary("the pending approvals", listed);
    expectNoCanary("the approval decision", await decided.text());
    expectNoCanary("the run's events", await replay(live.runId));
  });

  it("masks what the run machinery logs", async () => {
    const channel = new RunChannel("run-log");
    const recorder = new RunRecorder(
      channel,
      {
        write: async () => {
          throw new Error(`insert failed for value "${CANARY}" (${FORMS.base64})`);
        },
      },
      new SecretRedactor([["CANARY", CANARY]]),
    );
    recorder.event({ type: "block.delta", runId: "run-log", blockId: "b", spanId: "s", text: `said ${CANARY}` });
    await recorder.flush();
    expect(recorder.persistFailures).toBe(1);
    expect([...logged, ...logs.raw].join("\n")).toContain("[secret:CANARY]");
  });

  // Last: it greps what every run above stored and logged.
  it("appears in no stored row of runs, spans or events, and in no log line", async () => {
    const rows = await storedRows();
    expect(rows).toContain("[secret:CANARY]");
    expectNoCanary("the database rows", rows);
    expectNoCanary("the console output", logged.join("\n"));
    expectNoCanary("the server's log lines", logs.raw.join("\n"));
  });
});

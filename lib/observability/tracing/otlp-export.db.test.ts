import { Buffer } from "node:buffer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun } from "@/contract";
import { createDispatcher } from "@/lib/http/dispatch";
import type { AnyEndpoint } from "@/lib/http/operation-table";
import { testMember } from "@/lib/http/test-members";
import { captureLogs, type CapturedLogs } from "@/lib/observability/__fixtures__/captured-logs";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { auditRequestsTo } from "@/lib/audit";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { processMetrics } from "../metrics/trellis-metrics";
import { startTracing } from "./process-tracing";
import { recordSpanId } from "./trace-ids";
import type { TracingSdk } from "./tracing-sdk";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./__fixtures__/otlp-receiver";

/**
 * Issue 34: a run's trace exported over OTLP/HTTP (protobuf) to a receiver that decodes it with
 * the OpenTelemetry protobuf definitions: one trace, the caller's, with the run, each block (a
 * loop's iterations under the loop), each model call under its block, the GenAI attributes, and
 * cost equal to the run's; the API block's target sees the run's trace; a canary secret is in no
 * exported byte, metric or log line.
 */

const CANARY = "Cnry-otel-5Zq+8w/K";
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const MODEL = "openai/gpt-4o-mini";

let kit: RunTestKit;
let receiver: OtlpReceiver;
let target: LocalServer;
let sdk: TracingSdk;
let logs: CapturedLogs;
const targetSaw: Array<{ traceparent: string | undefined }> = [];
let workspaceId: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_SERVICE_NAME = "trellis-under-test";
  process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = "true";
  sdk = (await startTracing())!;
  logs = captureLogs();
  target = await startLocalServer((request, response) => {
    targetSaw.push({ traceparent: request.headers.traceparent as string | undefined });
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ ok: true }));
  });
  kit = await startRunTestKit({ guardedFetch: createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` }) });
  workspaceId = await kit.database.createWorkspace();
  await secretEndpoints(
    () => kit.database.repositories.secrets,
    auditRequestsTo(() => kit.database.prisma),
  ).put(
    new Request("http://localhost/api/secrets/CANARY", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value: CANARY }),
    }),
    { name: "CANARY" },
    testMember(workspaceId, "admin"),
  );
}, 60_000);

afterAll(async () => {
  logs?.stop();
  await kit?.close();
  await target?.close();
  await receiver?.close();
});

const block = (id: string, type: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  type,
  name: id[0]!.toUpperCase() + id.slice(1),
  position: { x: 0, y: 0 },
  config,
  ...extra,
});

function document(targetPort: number) {
  return {
    name: "Traced drafts",
    description: "",
    variables: {},
    blocks: [
      block("start", "start", { inputs: [{ name: "topic", type: "string" }] }),
      block("drafts", "loop", { kind: "for", count: 2 }),
      block(
        "writer",
        "agent",
        {
          model: MODEL,
          systemPrompt: "Write one short tagline. The key is {{CANARY}}.",
          userPrompt: "Tagline <loop.index> about <start.topic>",
        },
        { parentId: "drafts" },
      ),
      block("notify", "api", {
        url: `http://127.0.0.1:${targetPort}/hook`,
        method: "POST",
        headers: { authorization: "Bearer {{CANARY}}" },
        body: { drafts: "<drafts.results>" },
      }),
    ],
    edges: [
      { id: "e1", source: "start", target: "drafts" },
      { id: "e2", source: "drafts", target: "writer", sourceHandle: "body" },
      { id: "e3", source: "drafts", target: "notify" },
    ],
  };
}

/** The app's dispatcher over the run endpoints, so the request's `traceparent` is read as in production. */
function dispatcher() {
  const member = testMember(workspaceId, "editor");
  return createDispatcher(Object.values(kit.endpoints) as AnyEndpoint[], {
    identify: { caller: async () => member, workspace: async () => member.workspace },
  });
}

async function waitForSpans(traceId: string, count: number): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await sdk.flush();
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    if (spans.length >= count || Date.now() > deadline) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a run's trace over OTLP", () => {
  let run: ApiRun;
  let exported: ReceivedSpan[];

  beforeAll(async () => {
    const workflow = await kit.database.repositories.workflows.create(workspaceId, document(target.port) as never);
    const answer = await dispatcher()(
      new Request(`http://localhost/api/workflows/${workflow.id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
        body: JSON.stringify({ input: { topic: "rain boots" }, wait: true }),
      }),
    );
    run = (await answer.json()) as ApiRun;
    expect(run.status).toBe("succeeded");
    exported = await waitForSpans(CALLER_TRACE, run.spans.length + 1);
  }, 60_000);

  it("is one trace under the caller's span: the run, then every span of the editor's trace with the same parents", () => {
    const runSpan = exported.find((span) => span.attributes["trellis.span.kind"] === "run")!;
    expect(runSpan).toBeDefined();
    expect(runSpan.parentSpanId).toBe(CALLER_SPAN);
    expect(runSpan.name).toBe("run Traced drafts");
    expect(runSpan.resource["service.name"]).toBe("trellis-under-test");
    expect(exported).toHaveLength(run.spans.length + 1);
    // Block by block: each stored span is exported once, under the parent the editor shows it under.
    for (const stored of run.spans) {
      const span = exported.find((each) => each.spanId === recordSpanId(run.id, stored.id));
      expect(span, `span ${stored.blockId} ${stored.kind}`).toBeDefined();
      const parent = stored.parentId === null ? runSpan.spanId : recordSpanId(run.id, stored.parentId);
      expect(span!.parentSpanId).toBe(parent);
      expect(span!.attributes["trellis.block.id"]).toBe(stored.blockId);
      expect(span!.attributes["trellis.run.id"]).toBe(run.id);
      expect(span!.attributes["trellis.workflow.id"]).toBe(run.workflowId);
      expect(span!.attributes["trellis.workspace.id"]).toBe(workspaceId);
      expect(span!.attributes["trellis.trigger"]).toBe("editor");
      if (stored.cost) expect(span!.attributes["trellis.cost.total"] as number).toBeCloseTo(stored.cost.total, 9);
    }
    const loop = exported.find((span) => span.attributes["trellis.block.id"] === "drafts")!;
    const writers = exported.filter(
      (span) => span.attributes["trellis.block.id"] === "writer" && span.attributes["trellis.span.kind"] === "block",
    );
    expect(writers.map((span) => span.parentSpanId)).toEqual([loop.spanId, loop.spanId]);
    expect(writers.map((span) => span.attributes["trellis.iteration"]).sort()).toEqual([[0], [1]]);
  });

  it("has the GenAI attributes on each model call and cost equal to the run's to 1e-9", () => {
    const models = exported.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(models).toHaveLength(2);
    for (const span of models) {
      const stored = run.spans.find((each) => recordSpanId(run.id, each.id) === span.spanId)!;
      expect(span.name).toBe(`chat ${MODEL}`);
      expect(span.attributes).toMatchObject({
        "gen_ai.system": "openai",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": stored.tokens!.prompt,
        "gen_ai.usage.output_tokens": stored.tokens!.completion,
      });
      expect(span.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
      expect(span.parentSpanId).toBe(recordSpanId(run.id, stored.parentId!));
    }
    const modelCost = models.reduce((sum, span) => sum + (span.attributes["trellis.cost.total"] as number), 0);
    expect(Math.abs(modelCost - run.cost!.total)).toBeLessThan(1e-9);
    const runSpan = exported.find((span) => span.attributes["trellis.span.kind"] === "run")!;
    expect(Math.abs((runSpan.attributes["trellis.cost.total"] as number) - run.cost!.total)).toBeLessThan(1e-9);
    // The opt-in content is there, masked.
    expect(String(models[0]!.attributes["gen_ai.input.messages"])).toContain("[secret:CANARY]");
  });

  it("sends the run's trace onward: the API block's target sees a traceparent naming the block's span", () => {
    const notify = run.spans.find((span) => span.blockId === "notify" && span.kind === "block")!;
    expect(targetSaw.at(-1)?.traceparent).toBe(`00-${CALLER_TRACE}-${recordSpanId(run.id, notify.id)}-01`);
  });

  it("holds the canary in no exported byte, metric or log line", async () => {
    const forms = [CANARY, encodeURIComponent(CANARY), Buffer.from(CANARY).toString("base64"), JSON.stringify(CANARY)];
    const exportedBytes = Buffer.concat(receiver.bodies).toString("latin1");
    const metrics = await processMetrics().registry.metrics();
    for (const form of forms) {
      expect(exportedBytes.includes(form), `exported spans hold ${form}`).toBe(false);
      expect(metrics.includes(form)).toBe(false);
      expect(logs.raw.join("").includes(form)).toBe(false);
    }
    expect(receiver.bodies.length).toBeGreaterThan(0);
  });

  it("makes a workflow run by a Workflow block a child of that block's span, in the caller's trace", async () => {
    const child = await kit.database.repositories.workflows.create(workspaceId, {
      name: "Child",
      description: "",
      variables: {},
      blocks: [
        block("start", "start", { inputs: [] }),
        block("say", "agent", { model: MODEL, userPrompt: "Say hello" }),
      ],
      edges: [{ id: "c1", source: "start", target: "say" }],
    } as never);
    const parent = await kit.database.repositories.workflows.create(workspaceId, {
      name: "Parent",
      description: "",
      variables: {},
      blocks: [block("start", "start", { inputs: [] }), block("call", "workflow", { workflowId: child.id })],
      edges: [{ id: "p1", source: "start", target: "call" }],
    } as never);
    const answer = await dispatcher()(
      new Request(`http://localhost/api/workflows/${parent.id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ wait: true }),
      }),
    );
    const parentRun = (await answer.json()) as ApiRun;
    expect(parentRun.status).toBe("succeeded");
    const call = parentRun.spans.find((span) => span.blockId === "call" && span.kind === "block")!;
    const childRunId = (call.output as { runId: string }).runId;
    const deadline = Date.now() + 15_000;
    let childRunSpan: ReceivedSpan | undefined;
    while (!childRunSpan && Date.now() < deadline) {
      await sdk.flush();
      childRunSpan = receiver.spans.find(
        (span) => span.attributes["trellis.run.id"] === childRunId && span.attributes["trellis.span.kind"] === "run",
      );
      if (!childRunSpan) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const callSpan = receiver.spans.find((span) => span.spanId === recordSpanId(parentRun.id, call.id))!;
    expect(childRunSpan?.parentSpanId).toBe(callSpan.spanId);
    expect(childRunSpan?.traceId).toBe(callSpan.traceId);
  });
});

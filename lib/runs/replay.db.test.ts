import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, WorkflowDocumentInput } from "@/contract";
import { workflowDocumentSchema } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";

let kit: RunTestKit;
let ws: string;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
});
afterAll(() => kit.close());

const MODEL = "openai/gpt-4o-mini";

/** Start -> Writer (an agent with the calculator) -> Check (a condition) -> Done (response) or Reviewer (agent) -> Reviewed (response). */
function document(
  options: { writerPrompt?: string; checkExpression?: string; doneData?: unknown } = {},
): WorkflowDocumentInput {
  const at = { x: 0, y: 0 };
  return {
    name: "Replayed",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: at,
        config: { inputs: [{ name: "topic", type: "string" }] },
      },
      {
        id: "writer",
        type: "agent",
        name: "Writer",
        position: at,
        config: {
          model: MODEL,
          userPrompt: options.writerPrompt ?? "Write about <start.topic>",
          tools: ["calculator"],
          maxIterations: 3,
        },
      },
      {
        id: "check",
        type: "condition",
        name: "Check",
        position: at,
        config: {
          branches: [
            { id: "short", expression: options.checkExpression ?? "<writer.content>.length < 1000" },
            { id: "long" },
          ],
        },
      },
      {
        id: "done",
        type: "response",
        name: "Done",
        position: at,
        config: { data: options.doneData ?? { text: "<writer.content>" } },
      },
      {
        id: "reviewer",
        type: "agent",
        name: "Reviewer",
        position: at,
        config: { model: MODEL, userPrompt: "Review <writer.content>" },
      },
      {
        id: "reviewed",
        type: "response",
        name: "Reviewed",
        position: at,
        config: { data: { text: "<reviewer.content>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "writer" },
      { id: "e2", source: "writer", target: "check" },
      { id: "e3", source: "check", target: "done", sourceHandle: "branch:short" },
      { id: "e4", source: "check", target: "reviewer", sourceHandle: "branch:long" },
      { id: "e5", source: "reviewer", target: "reviewed" },
    ],
  };
}

const post = (path: string, body?: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function replay(runId: string, caller: Member = member) {
  return kit.endpoints.replay(post(`/api/runs/${runId}/replay`, { wait: true }), { id: runId }, caller);
}

async function getRun(runId: string): Promise<ApiRun> {
  return (await (
    await kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, member)
  ).json()) as ApiRun;
}

async function saveDraft(workflowId: string, changed: WorkflowDocumentInput) {
  const stored = await kit.database.repositories.workflows.get(ws, workflowId);
  await kit.database.repositories.workflows.update(
    ws,
    workflowId,
    workflowDocumentSchema.parse(changed),
    stored.version,
  );
}

/** A workflow and one real run of it: the writer calls the calculator once, then answers. */
async function recordedRun() {
  const workflowId = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document())))
    .id;
  kit.server.enqueue(
    {
      kind: "tool-calls",
      calls: [{ id: "call_sum", name: "calculator", arguments: { expression: "6*7" } }],
      usage: { prompt: 120, completion: 12 },
    },
    { kind: "text", text: "Tea: 42 leaves in water.", usage: { prompt: 150, completion: 9 } },
  );
  const live = await kit.runtime.runs.start(ws, workflowId, { topic: "tea" });
  const source = await live.done;
  expect(source.status).toBe("succeeded");
  return { workflowId, source: await getRun(source.id) };
}

const TIMES = new Set(["providerTiming", "cost", "startTime", "endTime", "duration"]);
const withoutTimes = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, inner: unknown) => (TIMES.has(key) ? undefined : inner));

const blockSpan = (run: ApiRun, blockId: string) =>
  run.spans.find((span) => span.kind === "block" && span.blockId === blockId);

describe("replay, through the run service against the test LLM server", () => {
  it("makes no request to the server and reproduces outputs byte for byte, at no cost, marked as a replay of its source", async () => {
    const { source } = await recordedRun();
    expect(source.cost?.total).toBeGreaterThan(0);
    const requests = kit.server.requests.length;

    const answer = await replay(source.id);
    expect(answer.status).toBe(200);
    const replayed = (await answer.json()) as ApiRun;

    expect(kit.server.requests.length).toBe(requests);
    expect(replayed).toMatchObject({
      status: "succeeded",
      replayOf: source.id,
      trigger: { kind: "replay" },
      cost: { input: 0, output: 0, total: 0 },
      unpriced: false,
    });
    expect(replayed.id).not.toBe(source.id);
    expect(JSON.stringify(replayed.output)).toBe(JSON.stringify(source.output));
    expect(replayed.output).toEqual({ text: "Tea: 42 leaves in water." });
    // Each block's output is the source's, but for what it cost and when and how long things took.
    for (const blockId of ["start", "writer", "check", "done"]) {
      expect(JSON.stringify(withoutTimes(blockSpan(replayed, blockId)!.output))).toBe(
        JSON.stringify(withoutTimes(blockSpan(source, blockId)!.output)),
      );
    }
    // The tool was answered from the recording: the same result, its call still shown.
    const toolSpans = replayed.spans.filter((span) => span.kind === "tool");
    expect(toolSpans).toHaveLength(1);
    expect(JSON.stringify(toolSpans[0]!.output)).toBe(
      JSON.stringify(source.spans.find((span) => span.kind === "tool")!.output),
    );
    // Model spans carry the recorded tokens at no cost.
    const models = replayed.spans.filter((span) => span.kind === "model");
    expect(models.map((span) => span.tokens?.total)).toEqual([132, 159]);
    expect(models.every((span) => span.cost?.total === 0)).toBe(true);
    expect((await getRun(source.id)).replayOf).toBeNull();

    // A replay of the replay answers from the same recordings.
    const again = (await (await replay(replayed.id)).json()) as ApiRun;
    expect(again).toMatchObject({
      status: "succeeded",
      replayOf: replayed.id,
      output: source.output,
      cost: { total: 0 },
    });
    expect(kit.server.requests.length).toBe(requests);
  });

  it("shows the effect of an edited condition and response for free, and reports a newly reached model block as not recorded", async () => {
    const { workflowId, source } = await recordedRun();
    const requests = kit.server.requests.length;

    await saveDraft(workflowId, document({ doneData: { text: "<writer.content>", note: "edited" } }));
    const edited = (await (await replay(source.id)).json()) as ApiRun;
    expect(edited).toMatchObject({
      status: "succeeded",
      output: { text: "Tea: 42 leaves in water.", note: "edited" },
      cost: { total: 0 },
    });

    // The condition now sends the run down the other branch, to a block the source run never ran.
    await saveDraft(workflowId, document({ checkExpression: "<writer.content>.length > 1000" }));
    const rerouted = (await (await replay(source.id)).json()) as ApiRun;
    expect(kit.server.requests.length).toBe(requests);
    expect(rerouted.status).toBe("failed");
    expect(blockSpan(rerouted, "check")!.output).toEqual({ selectedBranch: "long" });
    const reviewer = blockSpan(rerouted, "reviewer")!;
    expect(reviewer.status).toBe("failed");
    expect(reviewer.error).toMatchObject({ code: "not_recorded" });
    expect(reviewer.error!.message).toContain("Not recorded");
    expect(reviewer.error!.message).toContain("nothing was sent to the provider");
    expect(rerouted.cost?.total).toBe(0);
  });

  it("reports a block whose prompt changed as not recorded, naming the prompt, instead of calling the provider", async () => {
    const { workflowId, source } = await recordedRun();
    const requests = kit.server.requests.length;
    await saveDraft(workflowId, document({ writerPrompt: "Write a poem about <start.topic>" }));

    const replayed = (await (await replay(source.id)).json()) as ApiRun;
    expect(kit.server.requests.length).toBe(requests);
    expect(replayed.status).toBe("failed");
    const writer = blockSpan(replayed, "writer")!;
    expect(writer.error).toMatchObject({ code: "not_recorded" });
    expect(writer.error!.message).toContain("its prompt changed");
    expect(replayed.error).toMatchObject({ code: "not_recorded" });
  });

  it("replays a run from a block: the blocks it reused answer from the recordings of the run it re-ran", async () => {
    const { source } = await recordedRun();
    const requests = kit.server.requests.length;
    const started = await kit.endpoints.rerun(
      post(`/api/runs/${source.id}/rerun`, { blockId: "check" }),
      { id: source.id },
      member,
    );
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    // The event stream ends with the run.
    await (
      await kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`), { id: runId }, member)
    ).text();
    expect((await getRun(runId)).status).toBe("succeeded");

    const replayed = (await (await replay(runId)).json()) as ApiRun;
    expect(kit.server.requests.length).toBe(requests);
    expect(replayed).toMatchObject({ status: "succeeded", replayOf: runId, output: source.output, cost: { total: 0 } });
  });

  it("refuses a run that is still going (409) and another workspace's run (404)", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document())))
      .id;
    const running = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "running" });
    const refused = await replay(running.id);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "is still going (it is running)",
    );

    const ended = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    expect((await replay(ended.id, testMember(await kit.database.createWorkspace(), "editor"))).status).toBe(404);
    const misspelt = await kit.endpoints.replay(
      post(`/api/runs/${ended.id}/replay`, { wiat: true }),
      { id: ended.id },
      member,
    );
    expect(misspelt.status).toBe(400);
  });
});

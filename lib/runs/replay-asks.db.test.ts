import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowDocumentSchema, type ApiRun, type AskList } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";
import { askEndpoints, type AskEndpoints } from "./ask-endpoints";

/** A replay does not stop to ask a person again: its Ask blocks take the answers given in the run it replays. */

let kit: RunTestKit;
let asks: AskEndpoints;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  member = testMember(await kit.database.createWorkspace(), "editor", { email: "lead@example.com" });
  asks = askEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
});
afterAll(() => kit?.close());

async function parkedAsk(runId: string): Promise<AskList["asks"][number]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await kit.database.repositories.runs.get(member.workspace.id, runId);
    if (run.status === "paused" && run.worker === null) {
      const { asks: waiting } = (await (
        await asks.list(new Request("http://localhost/"), { id: runId }, member)
      ).json()) as AskList;
      if (waiting.length === 1) return waiting[0]!;
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} has not parked (status ${run.status})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function replay(runId: string): Promise<ApiRun> {
  const response = await kit.endpoints.replay(
    new Request(`http://localhost/api/runs/${runId}/replay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"wait":true}',
    }),
    { id: runId },
    member,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ApiRun;
}

describe("replay of a run with an Ask block", () => {
  it("answers the ask as the person did, without pausing, also in a replay of the replay", async () => {
    const document = workflowDocumentSchema.parse({
      name: "Approve",
      blocks: [
        { id: "start", type: "start", name: "Start", config: {} },
        {
          id: "confirm",
          type: "ask",
          name: "Confirm",
          config: {
            question: "Ship it?",
            choices: [
              { id: "yes", label: "Yes" },
              { id: "no", label: "No" },
            ],
          },
        },
        {
          id: "shipped",
          type: "response",
          name: "Shipped",
          config: { data: { decision: "<Confirm.choice>", by: "<Confirm.answeredBy>" } },
        },
        { id: "held", type: "response", name: "Held", config: { data: { decision: "held" } } },
      ],
      edges: [
        { id: "e1", source: "start", target: "confirm" },
        { id: "e2", source: "confirm", target: "shipped", sourceHandle: "choice:yes" },
        { id: "e3", source: "confirm", target: "held", sourceHandle: "choice:no" },
      ],
    });
    const workflowId = (await kit.database.repositories.workflows.create(member.workspace.id, document)).id;
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {});
    const ask = await parkedAsk(live.runId);
    const answered = await asks.answer(
      new Request(`http://localhost/api/runs/${live.runId}/asks/${ask.spanId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ choice: "yes" }),
      }),
      { id: live.runId, spanId: ask.spanId },
      member,
    );
    expect(answered.status).toBe(202);
    const source = await live.done;
    expect(source).toMatchObject({ status: "succeeded", output: { decision: "yes" } });

    const replayed = await replay(source.id);
    expect(replayed).toMatchObject({ status: "succeeded", output: source.output as Record<string, unknown> });
    const again = await replay(replayed.id);
    expect(again).toMatchObject({ status: "succeeded", output: source.output as Record<string, unknown> });
  });
});

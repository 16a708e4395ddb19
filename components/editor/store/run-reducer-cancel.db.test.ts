import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowDocumentSchema, type ApiRun, type SequencedRunEvent } from "@/contract";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { reduceRunEvents } from "./run-reducer";
import { initialRunView } from "./run-view";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";

/** A run cancelled while its Function block runs: the block reads cancelled, with why, in the trace and on the canvas. */

let kit: RunTestKit;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  member = testMember(await kit.database.createWorkspace(), "editor");
});
afterAll(() => kit?.close());

describe("cancelling a run while a Function block runs", () => {
  it("ends the block cancelled, not failed, in the stored trace and in the view the editor builds from the events", async () => {
    const document = workflowDocumentSchema.parse({
      name: "Slow code",
      blocks: [
        { id: "start", type: "start", name: "Start", config: {} },
        { id: "slow", type: "function", name: "Slow code", config: { code: "while (true) {}", timeoutMs: 30_000 } },
      ],
      edges: [{ id: "e1", source: "start", target: "slow", sourceHandle: "out" }],
    });
    const workflow = await kit.database.repositories.workflows.create(member.workspace.id, document);
    const live = await kit.runtime.runs.start(member.workspace.id, workflow.id, {});
    const events: SequencedRunEvent[] = [];
    live.channel!.subscribe(0, (item) => events.push(item));
    const deadline = Date.now() + 10_000;
    while (!events.some(({ event }) => event.type === "block.started" && event.blockId === "slow")) {
      if (Date.now() > deadline) throw new Error("the Function block did not start");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await kit.runtime.runs.cancel(member.workspace.id, live.runId);
    await live.done;

    const response = await kit.endpoints.get(
      new Request(`http://localhost/api/runs/${live.runId}`),
      { id: live.runId },
      member,
    );
    const run = (await response.json()) as ApiRun;
    expect(run.status).toBe("cancelled");
    const span = run.spans.find((item) => item.kind === "block" && item.blockId === "slow");
    expect(span?.status).toBe("cancelled");
    expect(events.map(({ event }) => event.type)).not.toContain("block.failed");

    const view = reduceRunEvents(initialRunView(live.runId, ["start", "slow"]), events);
    expect(view.status).toBe("cancelled");
    expect(view.blocks.slow).toMatchObject({ status: "cancelled", error: { code: "cancelled" } });
  });
});

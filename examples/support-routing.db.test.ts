import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";

/**
 * The shipped example as it is in examples/support-routing.json (only the model pointed at the
 * test LLM server): Start -> Router -> Sales Agent | Support Agent -> ONE Response, which reads
 * whichever agent ran through `<Sales Agent.content ?? Support Agent.content>`.
 */

let kit: RunTestKit;
let workspaceId: string;
let workflowId: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
  workflowId = (
    await kit.database.repositories.workflows.create(workspaceId, supportRoutingDocument("openai/gpt-4o-mini") as never)
  ).id;
});
afterAll(() => kit.close());

interface FinishedRun {
  status: string;
  output: unknown;
  error: unknown;
  spans: Array<{ kind: string; blockId: string; status: string }>;
}

async function runWith(message: string, route: string, answer: string): Promise<FinishedRun> {
  kit.server.enqueue({ kind: "text", text: route }, { kind: "text", text: answer });
  const request = new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: { message }, wait: true }),
  });
  const response = await kit.endpoints.start(request, { id: workflowId }, testMember(workspaceId, "editor"));
  expect(response.status).toBe(200);
  return (await response.json()) as FinishedRun;
}

const blocksThatRan = (run: FinishedRun) =>
  run.spans
    .filter((span) => span.kind === "block")
    .map((span) => span.blockId)
    .sort();

describe("the support-routing example: one Response after the router's branches", () => {
  it("answers a sales message with the sales agent's reply", async () => {
    const run = await runWith("How much does the Pro plan cost?", "sales", "The Pro plan is $20 a month.");
    expect(run).toMatchObject({
      status: "succeeded",
      error: null,
      output: { team: "sales", answer: "The Pro plan is $20 a month." },
    });
    expect(blocksThatRan(run)).toEqual(["response", "router", "sales", "start"]);
  });

  it("answers a support message with the support agent's reply", async () => {
    const run = await runWith("My parcel arrived broken", "support", "Sorry about that. A refund is on its way.");
    expect(run).toMatchObject({
      status: "succeeded",
      error: null,
      output: { team: "support", answer: "Sorry about that. A refund is on its way." },
    });
    expect(blocksThatRan(run)).toEqual(["response", "router", "start", "support"]);
  });
});

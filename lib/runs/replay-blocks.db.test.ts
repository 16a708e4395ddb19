import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, WorkflowDocumentInput } from "@/contract";
import { workflowDocumentSchema } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";

/** A replay sends nothing to the world either: an API block's answer comes from the source run's recording. */

let kit: RunTestKit;
let target: LocalServer;
let ws: string;
let member: Member;
let served = 0;
beforeAll(async () => {
  target = await startLocalServer((_request, response) => {
    served += 1;
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ order: served, status: "shipped" }));
  });
  kit = await startRunTestKit({ guardedFetch: createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` }) });
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
});
afterAll(async () => {
  await kit?.close();
  await target?.close();
});

function document(path: string): WorkflowDocumentInput {
  const at = { x: 0, y: 0 };
  return {
    name: "Orders",
    blocks: [
      { id: "start", type: "start", name: "Start", position: at, config: { inputs: [] } },
      {
        id: "lookup",
        type: "api",
        name: "Lookup",
        position: at,
        config: { url: `http://127.0.0.1:${target.port}${path}`, method: "GET" },
      },
      { id: "done", type: "response", name: "Done", position: at, config: { data: "<lookup.data>" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "lookup" },
      { id: "e2", source: "lookup", target: "done" },
    ],
  };
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

describe("replay of an API block", () => {
  it("answers from the recorded response without sending, and refuses a request that changed", async () => {
    const workflowId = (
      await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document("/orders/1")))
    ).id;
    const source = await (await kit.runtime.runs.start(ws, workflowId, {})).done;
    expect(source).toMatchObject({ status: "succeeded", output: { order: 1, status: "shipped" } });
    expect(served).toBe(1);

    const replayed = await replay(source.id);
    expect(replayed).toMatchObject({ status: "succeeded", replayOf: source.id });
    expect(JSON.stringify(replayed.output)).toBe(JSON.stringify(source.output));
    expect(served).toBe(1);

    const stored = await kit.database.repositories.workflows.get(ws, workflowId);
    await kit.database.repositories.workflows.update(
      ws,
      workflowId,
      workflowDocumentSchema.parse(document("/orders/2")),
      stored.version,
    );
    const changed = await replay(source.id);
    expect(served).toBe(1);
    expect(changed.status).toBe("failed");
    const lookup = changed.spans.find((span) => span.kind === "block" && span.blockId === "lookup")!;
    expect(lookup.error).toMatchObject({ code: "not_recorded" });
    expect(lookup.error!.message).toContain("GET request asks something else than the replayed run's did");
  });
});

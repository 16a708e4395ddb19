import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunDiff, WorkflowDocumentInput } from "@/contract";
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

/** Start -> Facts and Style (two agents side by side) -> Answer (response with both). */
function document(factsPrompt: string): WorkflowDocumentInput {
  const at = { x: 0, y: 0 };
  return {
    name: "Compared",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: at,
        config: { inputs: [{ name: "topic", type: "string" }] },
      },
      { id: "facts", type: "agent", name: "Facts", position: at, config: { model: MODEL, userPrompt: factsPrompt } },
      {
        id: "style",
        type: "agent",
        name: "Style",
        position: at,
        config: { model: MODEL, userPrompt: "A style for <start.topic>" },
      },
      { id: "answer", type: "response", name: "Answer", position: at, config: { data: { style: "<style.content>" } } },
    ],
    edges: [
      { id: "e1", source: "start", target: "facts" },
      { id: "e2", source: "start", target: "style" },
      { id: "e3", source: "facts", target: "answer" },
      { id: "e4", source: "style", target: "answer" },
    ],
  };
}

async function runOf(workflowId: string): Promise<string> {
  const run = await (await kit.runtime.runs.start(ws, workflowId, { topic: "tea" })).done;
  expect(run.status).toBe("succeeded");
  return run.id;
}

function diff(runId: string, otherId: string, caller: Member = member) {
  return kit.endpoints.diff(
    new Request(`http://localhost/api/runs/${runId}/diff/${otherId}`),
    { id: runId, otherId },
    caller,
  );
}

describe("GET /api/runs/:id/diff/:otherId over real runs", () => {
  it("finds exactly the changed block in a run pair that differs in one prompt", async () => {
    const workflowId = (
      await kit.database.repositories.workflows.create(
        ws,
        workflowDocumentSchema.parse(document("Facts about <start.topic>")),
      )
    ).id;
    const first = await runOf(workflowId);
    const stored = await kit.database.repositories.workflows.get(ws, workflowId);
    await kit.database.repositories.workflows.update(
      ws,
      workflowId,
      workflowDocumentSchema.parse(document("Three facts about <start.topic>")),
      stored.version,
    );
    const second = await runOf(workflowId);

    const answer = await diff(first, second);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as RunDiff;
    expect(body).toMatchObject({ runId: first, otherRunId: second, workflowId, changedBlocks: 1 });
    expect(body.blocks[0]).toMatchObject({
      blockId: "facts",
      blockName: "Facts",
      change: "changed",
      status: { changed: false },
    });
    // The test server echoes the prompt: "Echo: Facts about tea" became "Echo: Three facts about tea".
    expect(body.blocks[0]!.output).toMatchObject({ changed: true, kind: "text", path: "content" });
    const parts = (body.blocks[0]!.output as { parts: Array<{ kind: string; text: string }> }).parts;
    expect(parts.map((part) => [part.kind, part.text.trim()])).toEqual([
      ["same", "Echo:"],
      ["removed", "Facts"],
      ["added", "Three facts"],
      ["same", "about tea"],
    ]);
    expect(body.blocks[0]!.tokens.delta).toBeGreaterThan(0);
    expect(
      body.blocks.filter((block) => block.output.changed || block.status.changed).map((block) => block.blockId),
    ).toEqual(["facts"]);
  });

  it("refuses runs of different workflows (400) and another workspace's run (404)", async () => {
    const one = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document("x")))).id;
    const two = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document("y")))).id;
    const a = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId: one, status: "succeeded" });
    const b = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId: two, status: "succeeded" });
    const refused = await diff(a.id, b.id);
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain("are runs of different workflows");
    expect((await diff(a.id, a.id, testMember(await kit.database.createWorkspace(), "viewer"))).status).toBe(404);
    expect((await diff(a.id, "00000000-0000-7000-8000-000000000000")).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, WorkflowDocumentInput } from "@/contract";
import { workflowDocumentSchema } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { parseSse, startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";

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

function chain(articlePrompt: string): WorkflowDocumentInput {
  return {
    name: "Article",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        config: { inputs: [{ name: "topic", type: "string" }] },
      },
      {
        id: "outline",
        type: "agent",
        name: "Outline",
        position: { x: 200, y: 0 },
        config: { model: MODEL, userPrompt: "Outline <start.topic>" },
      },
      {
        id: "article",
        type: "agent",
        name: "Article",
        position: { x: 400, y: 0 },
        config: { model: MODEL, userPrompt: articlePrompt },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "outline", sourceHandle: "out" },
      { id: "e2", source: "outline", target: "article", sourceHandle: "out" },
    ],
  };
}

const post = (path: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

function rerun(runId: string, body: unknown, caller: Member = member) {
  return kit.endpoints.rerun(post(`/api/runs/${runId}/rerun`, body), { id: runId }, caller);
}

/** Runs the workflow through the API and reads its whole event stream. */
async function runToEnd(workflowId: string, input: Record<string, unknown>) {
  const response = await kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ input }),
    }),
    { id: workflowId },
    member,
  );
  const events = parseSse(await response.text());
  return { runId: events[0]!.data.runId as string, events };
}

async function eventsOf(runId: string) {
  return parseSse(
    await (
      await kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`), { id: runId }, member)
    ).text(),
  );
}

async function getRun(runId: string): Promise<ApiRun> {
  return (await (
    await kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, member)
  ).json()) as ApiRun;
}

async function saveDraft(workflowId: string, document: WorkflowDocumentInput) {
  const stored = await kit.database.repositories.workflows.get(ws, workflowId);
  await kit.database.repositories.workflows.update(
    ws,
    workflowId,
    workflowDocumentSchema.parse(document),
    stored.version,
  );
}

describe("run from a block, through the run service against the test LLM server", () => {
  it("repeats no upstream model call, runs the chosen block on the current draft, counts only what it spent, and links to the source", async () => {
    const workflowId = (
      await kit.database.repositories.workflows.create(
        ws,
        workflowDocumentSchema.parse(chain("Write from <Outline.content>")),
      )
    ).id;
    kit.server.enqueue(
      { kind: "text", text: "1. Leaves 2. Water", usage: { prompt: 300, completion: 40 } },
      { kind: "text", text: "Tea is made of leaves.", usage: { prompt: 90, completion: 20 } },
    );
    const source = await runToEnd(workflowId, { topic: "tea" });
    expect(source.events.at(-1)!.event).toBe("run.completed");
    const before = kit.server.requests.length;

    await saveDraft(workflowId, chain("Rewrite, shorter: <Outline.content>"));
    kit.server.enqueue({ kind: "text", text: "Tea: leaves in water.", usage: { prompt: 50, completion: 7 } });
    const answer = await rerun(source.runId, { blockId: "article" });
    expect(answer.status).toBe(202);
    const started = (await answer.json()) as { runId: string; rerunOf: { runId: string; blockId: string } };
    expect(started.rerunOf).toEqual({ runId: source.runId, blockId: "article" });
    expect(started.runId).not.toBe(source.runId);

    const events = await eventsOf(started.runId);
    // One model call: the article's, with the draft's new prompt and the outline the source run produced.
    expect(kit.server.requests.length - before).toBe(1);
    expect(kit.server.requests.at(-1)!.parsed.allText).toContain("Rewrite, shorter: 1. Leaves 2. Water");
    const outline = events.find((event) => event.event === "block.completed" && event.data.blockId === "outline")!;
    expect(outline.data.reused).toMatchObject({
      runId: source.runId,
      tokens: { prompt: 300, completion: 40, total: 340 },
    });
    expect(outline.data).not.toHaveProperty("tokens");
    const article = events.find((event) => event.event === "block.completed" && event.data.blockId === "article")!;
    expect(article.data).not.toHaveProperty("reused");
    const end = events.at(-1)!;
    expect(end.event).toBe("run.completed");
    expect(end.data.output).toMatchObject({ content: "Tea: leaves in water." });
    expect(end.data.tokens).toMatchObject({ prompt: 50, completion: 7, total: 57 });

    const stored = await getRun(started.runId);
    expect(stored).toMatchObject({
      status: "succeeded",
      input: { topic: "tea" },
      rerunOf: { runId: source.runId, blockId: "article" },
      tokens: { total: 57 },
    });
    const blockSpans = stored.spans.filter((span) => span.kind === "block");
    expect(blockSpans.filter((span) => span.reusedFrom === source.runId).map((span) => span.blockId)).toEqual([
      "start",
      "outline",
    ]);
    expect(blockSpans.find((span) => span.blockId === "outline")!.tokens).toBeNull();
    expect(stored.spans.filter((span) => span.kind === "model").map((span) => span.blockId)).toEqual(["article"]);
    expect((await getRun(source.runId)).rerunOf).toBeNull();
  });

  it("masks a secret value the reused result holds even after the secret was changed", async () => {
    const oldValue = "rotated-token-9f3a7c21";
    await kit.database.repositories.secrets.set(ws, "ROTATED_TOKEN", oldValue);
    const workflowId = (
      await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(chain("Use <Outline.content>")))
    ).id;
    kit.server.enqueue({ kind: "text", text: `the token is ${oldValue}` }, { kind: "text", text: "done" });
    const source = await runToEnd(workflowId, { topic: "keys" });
    expect(JSON.stringify(source.events)).not.toContain(oldValue);
    await kit.database.repositories.secrets.set(ws, "ROTATED_TOKEN", "a-new-value-0000");

    kit.server.enqueue({ kind: "text", text: "done again" });
    const started = (await (await rerun(source.runId, { blockId: "article" })).json()) as { runId: string };
    const events = await eventsOf(started.runId);
    // The model still gets the real value (the block reads the reused output), but nothing the run shows has it.
    expect(kit.server.requests.at(-1)!.parsed.allText).toContain(oldValue);
    const outline = events.find((event) => event.event === "block.completed" && event.data.blockId === "outline")!;
    expect(outline.data.output).toMatchObject({ content: "the token is [secret:ROTATED_TOKEN]" });
    expect(JSON.stringify(events)).not.toContain(oldValue);
    expect(JSON.stringify(await getRun(started.runId))).not.toContain(oldValue);
    const rows = await kit.database.prisma.blockCheckpoint.findMany({ where: { runId: started.runId } });
    expect(JSON.stringify(rows.map((row) => row.data))).not.toContain(oldValue);
  });

  it("fails the re-run with a clear error when the source run's results cannot be read", async () => {
    await kit.database.repositories.secrets.set(ws, "SEALED_TOKEN", "sealed-token-5d1e88aa");
    const workflowId = (
      await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(chain("Use <Outline.content>")))
    ).id;
    kit.server.enqueue({ kind: "text", text: "sealed-token-5d1e88aa" }, { kind: "text", text: "done" });
    const source = await runToEnd(workflowId, { topic: "keys" });
    // The outline's result held a secret value, so it is stored sealed; a changed secret key can no longer open it.
    const tampered = await kit.database.prisma.blockCheckpoint.updateMany({
      where: { runId: source.runId, key: "outline" },
      data: { sealed: "AAAA" },
    });
    expect(tampered.count).toBe(1);
    const before = kit.server.requests.length;

    const started = (await (await rerun(source.runId, { blockId: "article" })).json()) as { runId: string };
    const end = (await eventsOf(started.runId)).at(-1)!;
    expect(end.event).toBe("run.failed");
    expect(end.data.error).toMatchObject({ code: "run_setup_failed" });
    expect((end.data.error as { message: string }).message).toContain(
      `The results of run ${source.runId} that this run reuses could not be read`,
    );
    expect(kit.server.requests.length).toBe(before);
    expect((await getRun(started.runId)).status).toBe("failed");
  });

  it("refuses a block the draft does not have and a run that has not finished (400), and another workspace's run (404)", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(chain("x"))))
      .id;
    const ended = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    const unknown = await rerun(ended.id, { blockId: "gone" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain(
      `Block "gone" is not in the workflow's current draft`,
    );
    const missingField = await rerun(ended.id, {});
    expect(missingField.status).toBe(400);
    expect(JSON.stringify(await missingField.json())).toContain("blockId");

    const running = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "running" });
    const notFinished = await rerun(running.id, { blockId: "article" });
    expect(notFinished.status).toBe(400);
    expect(((await notFinished.json()) as { error: { message: string } }).error.message).toContain(
      "has not finished (it is running)",
    );

    const other = testMember(await kit.database.createWorkspace(), "editor");
    expect((await rerun(ended.id, { blockId: "article" }, other)).status).toBe(404);
  });

  it("refuses a block that was skipped or never ran in the source run (400), and takes one that ran", async () => {
    const document = chain("Write from <Outline.content>");
    // The article's only way in never holds: it is skipped.
    const edges = document.edges!;
    edges[1] = { ...edges[1]!, condition: 'output.content == "never"' };
    const workflowId = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document)))
      .id;
    kit.server.enqueue({ kind: "text", text: "1. Leaves" });
    const source = await runToEnd(workflowId, { topic: "tea" });
    expect(source.events.some((event) => event.event === "block.skipped" && event.data.blockId === "article")).toBe(
      true,
    );

    const skipped = await rerun(source.runId, { blockId: "article" });
    expect(skipped.status).toBe(400);
    expect(((await skipped.json()) as { error: { message: string } }).error.message).toBe(
      `Block "article" did not run in run "${source.runId}": run from a block that ran, or from the router before it.`,
    );
    const neverRan = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "failed" });
    expect((await rerun(neverRan.id, { blockId: "outline" })).status).toBe(400);

    kit.server.enqueue({ kind: "text", text: "1. Water" });
    const ran = await rerun(source.runId, { blockId: "outline" });
    expect(ran.status).toBe(202);
    expect((await eventsOf(((await ran.json()) as { runId: string }).runId)).at(-1)!.event).toBe("run.completed");
  });

  it("refuses a child run (400): it keeps no results, so every block would run again", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, workflowDocumentSchema.parse(chain("x"))))
      .id;
    const parent = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    const child = await kit.database.repositories.runs.create({
      workspaceId: ws,
      workflowId,
      status: "succeeded",
      parentRunId: parent.id,
    });
    const answer = await rerun(child.id, { blockId: "outline" });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      `Run "${child.id}" was started by another run (a workflow tool or Workflow block) and keeps no results to reuse`,
    );
  });
});

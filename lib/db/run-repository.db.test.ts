import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent, SpanRecord } from "@/contract";
import { NotFoundError } from "./errors";
import { newRunRow } from "./run-rows";
import { createTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase;
let ws: string;
let workflowId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  ws = await database.createWorkspace();
  const workflow = await database.repositories.workflows.create(ws, {
    name: "Runs",
    description: "",
    variables: {},
    blocks: [],
    edges: [],
  });
  workflowId = workflow.id;
});
afterAll(async () => {
  await database?.close();
});

describe("RunRepository, SpanRepository and RunEventRepository", () => {
  it("records a run with spans and events, and reads them back exactly", async () => {
    const { runs, runEvents } = database.repositories;
    const run = await runs.create({
      workspaceId: ws,
      workflowId,
      status: "running",
      input: { question: "Where is my order?" },
      startedAt: "2025-01-01T10:00:00.000Z",
    });
    expect(run).toMatchObject({
      status: "running",
      input: { question: "Where is my order?" },
      output: null,
      error: null,
      endedAt: null,
      cost: { input: 0, output: 0, total: 0 },
    });

    const blockSpan: SpanRecord = {
      id: `${run.id}-agent1`,
      runId: run.id,
      parentId: null,
      kind: "block",
      blockId: "agent1",
      blockName: "Support Agent",
      blockType: "agent",
      status: "running",
      startedAt: "2025-01-01T10:00:00.100Z",
      iteration: [0, 2],
    };
    const modelSpan: SpanRecord = {
      ...blockSpan,
      id: `${run.id}-agent1-model`,
      parentId: blockSpan.id,
      kind: "model",
      name: "openai/gpt-4o",
      model: "openai/gpt-4o",
      status: "succeeded",
      startedAt: "2025-01-01T10:00:00.150Z",
      endedAt: "2025-01-01T10:00:01.150Z",
      durationMs: 1000,
      input: { messages: [{ role: "user", content: "Where is my order?" }] },
      output: { text: "It ships today." },
      usage: {
        tokens: { prompt: 1200, completion: 30, total: 1230, cachedPrompt: 1024, reasoning: 20 },
        cost: { input: 0.0000025, output: 0.0003, total: 0.0003025, reasoning: 0.0002 },
      },
    };
    const finishedBlock: SpanRecord = {
      ...blockSpan,
      status: "succeeded",
      endedAt: "2025-01-01T10:00:01.200Z",
      durationMs: 1100,
      output: { content: "It ships today." },
    };
    // The block span is reported twice in one batch (started, then finished): the last state wins.
    await database.repositories.runWriter.write({ runId: run.id, spans: [blockSpan, modelSpan, finishedBlock] });

    const events: RunEvent[] = [
      { type: "run.started", runId: run.id, workflowId, startedAt: "2025-01-01T10:00:00.000Z" },
      {
        type: "block.started",
        runId: run.id,
        blockId: "agent1",
        blockName: "Support Agent",
        blockType: "agent",
        spanId: blockSpan.id,
        startedAt: "2025-01-01T10:00:00.100Z",
      },
      { type: "block.delta", runId: run.id, blockId: "agent1", spanId: blockSpan.id, text: "It ships " },
      { type: "block.delta", runId: run.id, blockId: "agent1", spanId: blockSpan.id, text: "today." },
      {
        type: "block.completed",
        runId: run.id,
        blockId: "agent1",
        spanId: blockSpan.id,
        output: { content: "It ships today." },
        durationMs: 1100,
        tokens: { prompt: 1200, completion: 30, total: 1230 },
        cost: { input: 0.0000025, output: 0.0003, total: 0.0003025 },
      },
    ];
    await runEvents.append(
      run.id,
      events.slice(0, 3).map((event, index) => ({ seq: index + 1, event })),
    );
    await runEvents.append(
      run.id,
      events.slice(3).map((event, index) => ({ seq: index + 4, event })),
    );

    const finished = await runs.update(run.id, {
      status: "succeeded",
      output: { answer: "It ships today." },
      endedAt: "2025-01-01T10:00:01.300Z",
      durationMs: 1300,
      usage: {
        tokens: { prompt: 1200, completion: 30, total: 1230, cachedPrompt: 1024, reasoning: 20 },
        cost: { input: 0.0000025, output: 0.0003, total: 0.0003025, reasoning: 0.0002 },
      },
    });
    expect(finished).toMatchObject({
      status: "succeeded",
      endedAt: "2025-01-01T10:00:01.300Z",
      durationMs: 1300,
      tokens: { prompt: 1200, completion: 30, total: 1230, cachedPrompt: 1024, reasoning: 20 },
      cost: { input: 0.0000025, output: 0.0003, total: 0.0003025, reasoning: 0.0002 },
      unpriced: false,
      estimated: false,
    });

    const loaded = await runs.getWithSpans(ws, run.id);
    expect(loaded).toMatchObject({
      id: run.id,
      workflowId,
      output: { answer: "It ships today." },
      startedAt: "2025-01-01T10:00:00.000Z",
    });
    expect(loaded.spans).toEqual([finishedBlock, modelSpan]);

    const replay = await runEvents.listAfter(run.id);
    expect(replay.map((item) => item.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(replay.map((item) => item.event)).toEqual(events);
    const resumed = await runEvents.listAfter(run.id, 3);
    expect(resumed.map((item) => item.event)).toEqual(events.slice(3));
    expect(await runEvents.lastSeq(run.id)).toBe(5);
  });

  it("ignores a retried batch of events instead of duplicating it", async () => {
    const { runs, runEvents } = database.repositories;
    const run = await runs.create({ workspaceId: ws, workflowId });
    const batch = [
      { seq: 1, event: { type: "run.started", runId: run.id, workflowId, startedAt: run.startedAt } as RunEvent },
    ];
    await runEvents.append(run.id, batch);
    await runEvents.append(run.id, batch);
    expect(await runEvents.listAfter(run.id)).toHaveLength(1);
    await expect(
      runEvents.append(run.id, [{ seq: 2, event: { type: "run.cancelled", runId: "another-run" } }]),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("keeps an unpriced run's cost null, never zero, and marks estimates", async () => {
    const { runs } = database.repositories;
    const run = await runs.create({ workspaceId: ws, workflowId, status: "running" });
    const updated = await runs.update(run.id, {
      usage: { tokens: { prompt: 10, completion: 5, total: 15 }, cost: null, unpriced: true, estimated: true },
    });
    expect(updated).toMatchObject({
      cost: null,
      unpriced: true,
      estimated: true,
      tokens: { prompt: 10, completion: 5, total: 15 },
    });
    expect((await runs.get(ws, run.id)).cost).toBeNull();
  });

  it("lists a workflow's runs newest first, filtered by status", async () => {
    const { workflows, runs } = database.repositories;
    const workflow = await workflows.create(ws, {
      name: "Listing",
      description: "",
      variables: {},
      blocks: [],
      edges: [],
    });
    const at = (day: number) => `2025-02-0${day}T00:00:00.000Z`;
    const old = await runs.create({
      workspaceId: ws,
      workflowId: workflow.id,
      status: "succeeded",
      queuedAt: at(1),
      startedAt: at(1),
    });
    const middle = await runs.create({
      workspaceId: ws,
      workflowId: workflow.id,
      status: "failed",
      queuedAt: at(2),
      startedAt: at(2),
    });
    const recent = await runs.create({
      workspaceId: ws,
      workflowId: workflow.id,
      status: "succeeded",
      queuedAt: at(3),
      startedAt: at(3),
    });

    expect((await runs.listByWorkflow(ws, workflow.id)).map((run) => run.id)).toEqual([recent.id, middle.id, old.id]);
    expect((await runs.listByWorkflow(ws, workflow.id, { status: "succeeded" })).map((run) => run.id)).toEqual([
      recent.id,
      old.id,
    ]);
    const first = await runs.pageByWorkflow(ws, workflow.id, { limit: 1 });
    expect(first.items.map((run) => run.id)).toEqual([recent.id]);
    const second = await runs.pageByWorkflow(ws, workflow.id, { limit: 2, after: first.next! });
    expect(second).toEqual({
      items: [expect.objectContaining({ id: middle.id }), expect.objectContaining({ id: old.id })],
      next: null,
    });
    await expect(runs.listByWorkflow(ws, workflow.id, { status: "done" as never })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("changes a run only while it has an expected status", async () => {
    const { runs } = database.repositories;
    const run = await runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    expect(
      await runs.update(run.id, { status: "cancelled" }, { onlyIfStatus: ["queued", "running", "paused"] }),
    ).toBeNull();
    expect((await runs.get(ws, run.id)).status).toBe("succeeded");
    await expect(runs.update("no-such-run", { status: "failed" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("keeps the workflow version and document a run executes, through a worker's claim and in the list", async () => {
    const { runs } = database.repositories;
    const ran = { name: "Runs", blocks: [], edges: [] };
    const queued = await runs.create({
      workspaceId: ws,
      workflowId,
      status: "queued",
      document: ran,
      workflowVersion: 3,
    });
    expect(queued.workflowVersion).toBe(3);
    const claimed = await runs.claim(queued.id, "worker-a");
    expect(claimed).toMatchObject({ run: { id: queued.id, status: "running", workflowVersion: 3 }, document: ran });
    expect((await runs.listByWorkflow(ws, workflowId)).find((run) => run.id === queued.id)?.workflowVersion).toBe(3);
    expect(await runs.documentOf(ws, queued.id)).toEqual({ workflowId, workflowVersion: 3, document: ran });

    const older = await runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    expect(await runs.documentOf(ws, older.id)).toEqual({ workflowId, workflowVersion: null, document: null });
    await expect(runs.create({ workspaceId: ws, workflowId, workflowVersion: 0 })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(runs.documentOf(await database.createWorkspace(), queued.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("keeps the caller's traceparent with a run stored by the run writer, for whichever worker claims it, queued or going on", async () => {
    const { runs, runWriter } = database.repositories;
    const traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const { row } = newRunRow({ workspaceId: ws, workflowId, status: "queued", traceParent });
    await runWriter.write({ runId: row.id, run: row });
    expect(await runs.claim(row.id, "worker-a")).toMatchObject({ fresh: true, traceParent });
    // Parked for a person, then taken again by another process.
    await runs.update(row.id, { status: "paused", worker: null });
    expect(await runs.claim(row.id, "worker-b")).toMatchObject({ fresh: false, parked: true, traceParent });
    const plain = await runs.create({ workspaceId: ws, workflowId, status: "queued" });
    expect((await runs.claim(plain.id, "worker-a"))?.traceParent).toBeUndefined();
  });

  it("refuses a run for a workflow that does not exist", async () => {
    await expect(
      database.repositories.runs.create({ workspaceId: ws, workflowId: "no-such-workflow" }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: 'Workflow "no-such-workflow" was not found',
    });
  });

  it("keeps each workspace's runs to itself: another workspace cannot get or list them, nor start one on the first's workflow", async () => {
    const { workflows, runs } = database.repositories;
    const other = await database.createWorkspace("Other");
    const run = await runs.create({ workspaceId: ws, workflowId, status: "succeeded" });

    await expect(runs.get(other, run.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(runs.getWithSpans(other, run.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(runs.listByWorkflow(other, workflowId)).rejects.toMatchObject({ code: "not_found" });
    await expect(runs.create({ workspaceId: other, workflowId })).rejects.toMatchObject({ code: "not_found" });

    // The other workspace's own workflow lists only its own runs.
    const theirs = await workflows.create(other, {
      name: "Theirs",
      description: "",
      variables: {},
      blocks: [],
      edges: [],
    });
    const theirRun = await runs.create({ workspaceId: other, workflowId: theirs.id });
    expect((await runs.listByWorkflow(other, theirs.id)).map((item) => item.id)).toEqual([theirRun.id]);
    await expect(runs.listByWorkflow(ws, theirs.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(runs.get(ws, theirRun.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await runs.get(ws, run.id)).id).toBe(run.id);
  });
});

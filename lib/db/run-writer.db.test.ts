import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpanRecord } from "@/contract";
import { emptyUsage } from "@/executor";
import { newRunRow, runEndRow } from "./run-rows";
import { RunWriter } from "./run-writer";
import { createTestDatabase, type TestDatabase } from "./test-database";

// Served, so the writer uses its own pool as in the app: on the embedded database every connection is one session.
let database: TestDatabase;
let ws: string;
let workflowId: string;
beforeAll(async () => {
  database = await createTestDatabase({ serve: true });
  ws = await database.createWorkspace();
  workflowId = (
    await database.repositories.workflows.create(ws, {
      name: "Writes",
      description: "",
      variables: {},
      blocks: [],
      edges: [],
    })
  ).id;
});
afterAll(async () => {
  await database?.close();
});

function span(runId: string, id: string, status: SpanRecord["status"]): SpanRecord {
  return {
    id,
    runId,
    parentId: null,
    kind: "block",
    blockId: "b",
    blockName: "B",
    blockType: "task",
    status,
    startedAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("the run writer", () => {
  it("stores new runs of many starts together, and a run's end with its last event: as read back, and only while the run is live", async () => {
    const { runs, runWriter, runEvents } = database.repositories;
    const made = Array.from({ length: 5 }, (_, index) =>
      newRunRow({
        workspaceId: ws,
        workflowId,
        status: "running",
        input: { index },
        worker: "here",
        trigger: { kind: "api", apiKeyId: "key-1" },
      }),
    );
    await Promise.all(made.map(({ row }) => runWriter.write({ runId: row.id, run: row })));
    for (const { record } of made) expect(await runs.get(ws, record.id)).toEqual(record);

    const [first, second] = made;
    const end = {
      status: "succeeded" as const,
      output: { done: true },
      error: null,
      endedAt: new Date(),
      durationMs: 12,
      usage: emptyUsage(),
    };
    const overhead = { queueMs: 0, startMs: 1, storageMs: 2, betweenBlocksMs: 0 };
    const { row, record } = runEndRow(first!.record, { ...end, overhead });
    const final = {
      seq: 1,
      event: {
        type: "run.completed" as const,
        runId: record.id,
        output: { done: true },
        durationMs: 12,
        tokens: emptyUsage().tokens,
        cost: emptyUsage().cost,
      },
    };
    expect(await runWriter.write({ runId: record.id, events: [final], end: row })).toEqual({ ended: true });
    expect(await runs.get(ws, record.id)).toEqual(record);
    expect((await runEvents.listAfter(record.id, 0)).map((item) => item.event.type)).toEqual(["run.completed"]);

    // Cancelled meanwhile by another process: a late end changes nothing, and says so.
    await runs.update(second!.record.id, { status: "cancelled", endedAt: new Date(), durationMs: 5 });
    const late = runEndRow(second!.record, end);
    expect(await runWriter.write({ runId: second!.record.id, end: late.row })).toEqual({ ended: false });
    expect((await runs.get(ws, second!.record.id)).status).toBe("cancelled");
  });

  it("stores many runs' writes at once, several in flight, each span in its latest state and each event once", async () => {
    const { runs, runWriter, runEvents, spans } = database.repositories;
    const stored = await Promise.all(
      Array.from({ length: 12 }, () => runs.create({ workspaceId: ws, workflowId, status: "running" })),
    );
    await Promise.all(
      stored.flatMap((run) => [
        runWriter.write({
          runId: run.id,
          spans: [span(run.id, `${run.id}-s`, "running")],
          events: [{ seq: 1, event: { type: "run.started", runId: run.id, workflowId, startedAt: run.startedAt } }],
        }),
        runWriter.write({
          runId: run.id,
          spans: [span(run.id, `${run.id}-s`, "succeeded")],
          checkpoint: { key: "b", data: { status: "completed", output: { n: 1 } }, sealed: null },
        }),
      ]),
    );
    // A write repeated (a retry) changes nothing.
    await runWriter.write({
      runId: stored[0]!.id,
      events: [{ seq: 1, event: { type: "run.started", runId: stored[0]!.id, workflowId, startedAt: "x" } }],
    });
    for (const run of stored) {
      expect((await runEvents.listAfter(run.id, 0)).map((item) => item.event.type)).toEqual(["run.started"]);
      expect((await spans.listByRun(run.id)).map((item) => item.status)).toEqual(["succeeded"]);
      expect((await database.repositories.checkpoints.load(run.id)).checkpoints.get("b")).toEqual({
        status: "completed",
        output: { n: 1 },
      });
    }
  });

  it("a second writer on the same database (one session when embedded) still writes", async () => {
    const { runs, runEvents } = database.repositories;
    const second = new RunWriter(database.prisma, database.url, database.backend === "embedded");
    try {
      const run = await runs.create({ workspaceId: ws, workflowId, status: "running" });
      await database.repositories.runWriter.write({
        runId: run.id,
        events: [{ seq: 1, event: { type: "run.cancelled", runId: run.id } }],
      });
      await second.write({ runId: run.id, events: [{ seq: 2, event: { type: "run.cancelled", runId: run.id } }] });
      await second.write({ runId: run.id, events: [{ seq: 3, event: { type: "run.cancelled", runId: run.id } }] });
      expect(await runEvents.lastSeq(run.id)).toBe(3);
    } finally {
      await second.close();
    }
  });

  it("names the run when it does not exist, and other runs' writes still land", async () => {
    const { runs, runWriter, runEvents } = database.repositories;
    const good = await runs.create({ workspaceId: ws, workflowId, status: "running" });
    const results = await Promise.allSettled([
      runWriter.write({
        runId: "no-such-run",
        events: [{ seq: 1, event: { type: "run.cancelled", runId: "no-such-run" } }],
      }),
      runWriter.write({ runId: good.id, events: [{ seq: 1, event: { type: "run.cancelled", runId: good.id } }] }),
    ]);
    expect(results[0]).toMatchObject({ status: "rejected", reason: { code: "not_found" } });
    expect(results[1]!.status).toBe("fulfilled");
    expect(await runEvents.lastSeq(good.id)).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase;
let ws: string;
let workflowId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  ws = await database.createWorkspace();
  workflowId = (
    await database.repositories.workflows.create(ws, {
      name: "History",
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

describe("RunHistoryRepository.recentRuns", () => {
  it("learns only from real succeeded runs: not test runs, replays, evaluation runs or failed runs", async () => {
    const { runs, runHistory } = database.repositories;
    const started = {
      workspaceId: ws,
      workflowId,
      status: "succeeded" as const,
      startedAt: "2026-01-01T10:00:00.000Z",
    };
    const real = await runs.create({ ...started, input: { n: 1 } });
    await runs.create({ ...started, input: { n: 2 }, test: true });
    await runs.create({ ...started, input: { n: 3 }, trigger: { kind: "replay" } });
    await runs.create({ ...started, status: "failed", input: { n: 4 } });
    // An evaluation's run follows its dataset, not the workflow's traffic, even out of test mode.
    await runs.create({ ...started, input: { n: 5 }, trigger: { kind: "evaluation" } });

    const history = await runHistory.recentRuns(ws, workflowId, 20);

    expect(history.map((run) => run.runId)).toEqual([real.id]);
  });
});

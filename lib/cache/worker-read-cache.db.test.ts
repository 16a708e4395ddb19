import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import {
  killAllWorkers,
  modelEnv,
  spawnWorker,
  startWebProcess,
  waitForEnd,
  type WebProcess,
  type WorkerProcess,
} from "@/lib/runs/durable/__fixtures__/durable-kit";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";

/**
 * A real second process: `npm run worker` executes the runs this process starts, with its own
 * read cache following its own run bus (lib/runtime/start-runs.ts). A secret rotated here is what
 * its next run reads. PostgreSQL only: the embedded database belongs to one process.
 */

const at = { x: 0, y: 0 };
const tokenLength: WorkflowDocument = {
  name: "Token length",
  description: "",
  variables: {},
  settings: {},
  blocks: [
    { id: "start", type: "start", name: "Start", position: at, config: { inputs: [] } },
    {
      id: "measure",
      type: "function",
      name: "Measure",
      position: at,
      config: { code: "return { tokenLength: {{TOKEN}}.length };" },
    },
    { id: "answer", type: "response", name: "Answer", position: at, config: { data: "<measure.result>" } },
  ],
  edges: [
    { id: "e1", source: "start", target: "measure" },
    { id: "e2", source: "measure", target: "answer" },
  ],
} as unknown as WorkflowDocument;

describe.runIf(process.env.DATABASE_URL)("a worker process's read cache", () => {
  let database: TestDatabase;
  let llm: TestLlmServer;
  let web: WebProcess;
  let worker: WorkerProcess;
  let workerId: string;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    llm = await startTestLlmServer();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-cache-"));
    web = await startWebProcess({ repositories: database.repositories, llm, url: database.url!, singleProcess: false });
    worker = spawnWorker("cache", {
      DATABASE_URL: database.url!,
      DATA_DIR: dataDir,
      TRELLIS_SECRET_KEY: database.secretKey.toString("base64"),
      ...modelEnv(llm),
    });
    workerId = await worker.ready;
  }, 60_000);

  afterAll(async () => {
    await killAllWorkers();
    await web?.stop();
    await llm?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads a secret rotated in another process from the next run on", async () => {
    const workspaceId = await database.createWorkspace();
    const workflow = await database.repositories.workflows.create(workspaceId, tokenLength);
    await createDeploymentService(database.repositories).deploy(workspaceId, workflow.id, { note: "", userId: null });
    const runOnWorker = async () => {
      const live = await web.runtime.runs.start(workspaceId, workflow.id, {}, { target: "active-deployment" });
      const run = await waitForEnd(database.repositories, workspaceId, live.runId);
      expect(run.worker).toBe(workerId);
      return run.output;
    };
    await database.repositories.secrets.set(workspaceId, "TOKEN", "four");
    expect(await runOnWorker()).toEqual({ tokenLength: 4 });
    expect(await runOnWorker()).toEqual({ tokenLength: 4 });
    await database.repositories.secrets.set(workspaceId, "TOKEN", "twelve chars");
    expect(await runOnWorker()).toEqual({ tokenLength: 12 });
    await database.repositories.secrets.set(workspaceId, "TOKEN", "six ch");
    expect(await runOnWorker()).toEqual({ tokenLength: 6 });
  }, 60_000);
});

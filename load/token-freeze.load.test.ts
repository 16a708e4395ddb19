/**
 * One long word must not freeze the server (issue 30, item 1). Token counting was quadratic on a
 * run of characters without a word break and ran on the event loop: a 16 KB public chat message of
 * one word froze every request for 77 s, an 8 KB webhook body for 26 s (a 1 MB one for hours), a
 * viewer's estimate with 8,000 letters for 7 s, and an agent asked to write 2 MiB froze the server.
 * Each input is sent here to the built app while health is asked every 20 ms: health must answer
 * within HEALTH_P99_BOUND_MS at p99 until the input's work has ended.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_MESSAGE_MAX_BYTES, WEBHOOK_MAX_BODY_BYTES } from "@/contract";
import { healthDuring } from "./health-during";
import { callApi, expectStatus, waitForRuns } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";

export const HEALTH_P99_BOUND_MS = 100;
const RUN_TIMEOUT_MS = 120_000;

function block(id: string, type: string, name: string, config: Record<string, unknown>) {
  return { id, type, name, position: { x: 0, y: 0 }, config };
}

/** start (message) -> agent on the offline model (`prompt`) -> response: what a public chat or a webhook runs. */
function echoWorkflow(name: string, prompt: string) {
  const blocks = [
    block("start", "start", "Start", { inputs: [{ name: "message", type: "string" }] }),
    block("agent", "agent", "Agent", { model: "offline/echo", userPrompt: prompt }),
    block("response", "response", "Response", { data: { answer: "<Agent.content>" } }),
  ];
  return {
    name,
    blocks,
    edges: blocks.slice(1).map((target, index) => ({ id: `e${index}`, source: blocks[index]!.id, target: target.id })),
  };
}

async function deployedWorkflow(app: LoadApp, name: string, prompt = "<start.message>"): Promise<string> {
  const workflow = expectStatus<{ id: string }>(
    "POST /api/workflows",
    await callApi(app, "POST", "/api/workflows", echoWorkflow(name, prompt)),
    201,
  );
  expectStatus(
    "POST deployments",
    await callApi(app, "POST", `/api/workflows/${workflow.id}/deployments`, { note: name }),
    201,
  );
  return workflow.id;
}

async function webhookOf(app: LoadApp, workflowId: string): Promise<string> {
  return expectStatus<{ id: string }>(
    "POST webhooks",
    await callApi(app, "POST", `/api/workflows/${workflowId}/webhooks`, {}),
    201,
  ).id;
}

/** Sends `body` to the hook and waits for its run to end; the run's status. */
async function deliver(app: LoadApp, workflowId: string, hookId: string, body: string): Promise<string> {
  const { runId } = expectStatus<{ runId: string }>(
    "POST /api/hooks",
    await callApi(app, "POST", `/api/hooks/${hookId}`, body),
    202,
  );
  const runs = await waitForRuns(app, workflowId, [runId], RUN_TIMEOUT_MS);
  return runs.get(runId)!.status;
}

/** A JSON body `{ "message": "xxx…" }` of exactly `bytes` bytes: one word. */
function oneWordBody(bytes: number): string {
  const frame = JSON.stringify({ message: "" }).length;
  return JSON.stringify({ message: "x".repeat(bytes - frame) });
}

describe("health while one long word is counted", () => {
  let app: LoadApp;

  beforeAll(async () => {
    app = await startLoadApp("token-freeze");
  });

  afterAll(async () => {
    await app?.close();
  });

  function check(title: string, measured: Awaited<ReturnType<typeof healthDuring<unknown>>>, extra: object = {}) {
    report(title, {
      ...measured.health,
      boundP99Ms: HEALTH_P99_BOUND_MS,
      workMs: measured.workMs,
      failures: measured.failures.length,
      database: app.database,
      ...extra,
    });
    expect.soft(measured.failures, "health requests that failed").toEqual([]);
    expect.soft(measured.health.p99Ms, `${title}: health p99 (ms)`).toBeLessThan(HEALTH_P99_BOUND_MS);
  }

  it("a 16 KB public chat message of one word", async () => {
    const workflowId = await deployedWorkflow(app, "Public chat");
    const chat = expectStatus<{ chatId: string }>(
      "POST chat",
      await callApi(app, "POST", `/api/workflows/${workflowId}/chat`, { enabled: true }),
      200,
    );
    const message = "x".repeat(CHAT_MESSAGE_MAX_BYTES);
    const measured = await healthDuring(app, () =>
      callApi(app, "POST", `/api/chat/${chat.chatId}/messages`, { message }),
    );
    expect(measured.result.status).toBe(200);
    expect(measured.result.text).toContain("run.completed");
    check("health during a 16 KB one-word chat message", measured);
  });

  it.each([
    ["8 KB", 8 * 1024],
    ["1 MB", WEBHOOK_MAX_BODY_BYTES],
  ])("a %s webhook body of one word", async (label, bytes) => {
    const workflowId = await deployedWorkflow(app, `Webhook ${label}`);
    const hookId = await webhookOf(app, workflowId);
    const measured = await healthDuring(app, () => deliver(app, workflowId, hookId, oneWordBody(bytes)));
    expect(measured.result).toBe("succeeded");
    check(`health during a ${label} one-word webhook body`, measured);
  });

  it("an estimate with 8,000 letters in one word", async () => {
    const workflowId = await deployedWorkflow(app, "Estimate");
    const input = { message: "x".repeat(8_000) };
    const measured = await healthDuring(app, () =>
      callApi(app, "POST", `/api/workflows/${workflowId}/estimate`, { input }),
    );
    expect(measured.result.status, measured.result.text.slice(0, 500)).toBe(200);
    check("health during an 8,000-letter estimate", measured);
  });

  it("an agent on the offline model asked to write 2 MiB", async () => {
    // The hook's 1 MiB message twice in the prompt: the echo (2 MiB before its limit) and its counts.
    const workflowId = await deployedWorkflow(app, "Two MiB answer", "<start.message><start.message>");
    const hookId = await webhookOf(app, workflowId);
    const measured = await healthDuring(app, () =>
      deliver(app, workflowId, hookId, oneWordBody(WEBHOOK_MAX_BODY_BYTES)),
    );
    expect(measured.result).toBe("succeeded");
    check("health during a 2 MiB offline answer", measured);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AskList, ErrorBody } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { askEndpoints, type AskEndpoints } from "@/lib/runs/ask-endpoints";

/**
 * The ask-and-route approval example (examples/ask-approval.json, from the MCP-bridge seed's
 * human-in-the-loop question) run end to end through the real run service on the database: the
 * run parks at the ask, the answer goes through the API, and the run goes down the chosen path.
 */

let kit: RunTestKit;
let endpoints: AskEndpoints;
let workflowId: string;
let member: Member;

function exampleDocument(): unknown {
  return JSON.parse(readFileSync(path.join(process.cwd(), "examples", "ask-approval.json"), "utf8"));
}

beforeAll(async () => {
  kit = await startRunTestKit();
  const ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor", { email: "ops@example.com" });
  endpoints = askEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
  workflowId = (await kit.database.repositories.workflows.create(ws, exampleDocument() as never)).id;
});
afterAll(() => kit?.close());

async function listAsks(runId: string): Promise<AskList> {
  const response = await endpoints.list(new Request(`http://localhost/api/runs/${runId}/asks`), { id: runId }, member);
  expect(response.status).toBe(200);
  return (await response.json()) as AskList;
}

function answer(runId: string, spanId: string, body: unknown): Promise<Response> {
  const request = new Request(`http://localhost/api/runs/${runId}/asks/${spanId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return endpoints.answer(request, { id: runId, spanId }, member);
}

async function parkedAsks(runId: string): Promise<AskList> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await kit.database.repositories.runs.get(member.workspace.id, runId);
    if (run.status === "paused" && run.worker === null) return listAsks(runId);
    if (Date.now() > deadline) throw new Error(`run ${runId} did not park (status ${run.status})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("examples/ask-approval.json", () => {
  it("parks at the question, refuses a choice it does not offer, and goes down the chosen branch once answered", async () => {
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, {
      request: "Deploy billing to eu-west",
    });
    const listed = await parkedAsks(live.runId);
    expect(listed.status).toBe("paused");
    expect(listed.asks).toHaveLength(1);
    const [ask] = listed.asks;
    expect(ask).toMatchObject({
      blockId: "approve",
      allowText: true,
      choices: [{ id: "choose_plan" }, { id: "continue_searching" }, { id: "abort" }],
    });
    expect(ask!.question).toMatch(
      /^I found this plan: .*Deploy billing to eu-west.*Proceed with it, keep searching, or abort\?$/s,
    );
    expect(Date.parse(ask!.timeoutAt!) - Date.parse(ask!.requestedAt)).toBe(86_400_000);

    const wrong = await answer(live.runId, ask!.spanId, { choice: "ship_it" });
    expect(wrong.status).toBe(400);
    const refused = (await wrong.json()) as ErrorBody;
    expect(refused.error.details).toEqual([expect.objectContaining({ path: "choice" })]);
    expect(refused.error.message).toContain(
      '"ship_it" is not one of this ask\'s choices: "choose_plan", "continue_searching", "abort"',
    );

    const taken = await answer(live.runId, ask!.spanId, { choice: "choose_plan", text: "Go after 18:00" });
    expect(taken.status).toBe(202);
    const run = await live.done;
    expect(run.status).toBe("succeeded");
    expect(run.output).toMatchObject({ action: "deploy", approvedBy: "ops@example.com", note: "Go after 18:00" });

    const stored = await kit.database.repositories.runs.getWithSpans(member.workspace.id, live.runId);
    const blocksRun = new Set(stored.spans.filter((span) => span.kind === "block").map((span) => span.blockId));
    expect(blocksRun.has("deploy")).toBe(true);
    expect(["search_again", "alternatives", "cancel", "expired"].filter((id) => blocksRun.has(id))).toEqual([]);
    // One span for the ask, from the question to the answer, recording who answered and when.
    const askSpans = stored.spans.filter((span) => span.blockId === "approve");
    expect(askSpans).toHaveLength(1);
    expect(askSpans[0]).toMatchObject({
      id: ask!.spanId,
      status: "succeeded",
      output: { choice: "choose_plan", answeredBy: "ops@example.com" },
    });
    expect(Date.parse((askSpans[0]!.output as { answeredAt: string }).answeredAt)).toBeGreaterThanOrEqual(
      Date.parse(ask!.requestedAt),
    );

    const again = await answer(live.runId, ask!.spanId, { choice: "abort" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorBody).error.message).toContain("was answered at");
  });

  it("aborts down the abort branch when that is the answer", async () => {
    const live = await kit.runtime.runs.start(member.workspace.id, workflowId, { request: "Deploy search to us-east" });
    const [ask] = (await parkedAsks(live.runId)).asks;
    expect((await answer(live.runId, ask!.spanId, { choice: "abort" })).status).toBe(202);
    const run = await live.done;
    expect(run.output).toEqual({ action: "abort", abortedBy: "ops@example.com" });
  });
});

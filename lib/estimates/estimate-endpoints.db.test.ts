import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { estimateOver } from "./__fixtures__/estimate-kit";

/** POST /api/workflows/:id/estimate over a real database: who may ask, and what bad input answers. */

let kit: RunTestKit;
let estimates: ReturnType<typeof estimateOver>;
let workspaceId: string;
let workflowId: string;

beforeAll(async () => {
  kit = await startRunTestKit();
  estimates = estimateOver(kit);
  workspaceId = await kit.database.createWorkspace();
  workflowId = (
    await kit.database.repositories.workflows.create(workspaceId, supportRoutingDocument("openai/gpt-4o-mini") as never)
  ).id;
});
afterAll(() => kit.close());

describe("POST /api/workflows/:id/estimate", () => {
  it("answers a viewer, marked as an estimate, with no past run to learn from", async () => {
    const answer = await estimates.ask(workspaceId, workflowId, { input: { message: "Hello" } }, "viewer");
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({ estimate: true, historyRuns: 0, unpriced: [] });
    expect(body.blocks.every((entry: { basis: string }) => entry.basis === "defaults")).toBe(true);
    expect(body.total.low).toBeLessThan(body.total.expected);
    expect(body.total.expected).toBeLessThan(body.total.high);
  });

  it("with no input, estimates the inputs as unknown rather than refusing them", async () => {
    const answer = await estimates.ask(workspaceId, workflowId, {});
    expect(answer.status).toBe(200);
    const withInput = await estimates.estimate(workspaceId, workflowId, { message: "Hi" });
    const body = await answer.json();
    // An unknown message is given an allowance larger than the two words typed.
    expect(body.total.expected).toBeGreaterThan(withInput.total.expected);
  });

  it("refuses an input the start block would refuse, naming it", async () => {
    const missing = await estimates.ask(workspaceId, workflowId, { input: {} });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: {
        code: "invalid_input",
        message: expect.stringContaining("'message' is required"),
        details: [{ path: "input.message" }],
      },
    });
    const wrongType = await estimates.ask(workspaceId, workflowId, { input: { message: 42 } });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({
      error: { code: "invalid_input", message: "Run input 'message' must be a string, got number" },
    });
  });

  it("refuses a body that is not { input } by its field", async () => {
    const answer = await estimates.ask(workspaceId, workflowId, { inputs: { message: "Hello" } });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { code: "invalid_request", message: expect.stringContaining("inputs") },
    });
  });

  it("answers 404 for an unknown workflow and for another workspace's", async () => {
    expect((await estimates.ask(workspaceId, randomUUID(), { input: { message: "Hello" } })).status).toBe(404);
    const otherWorkspace = await kit.database.createWorkspace();
    const answer = await estimates.ask(otherWorkspace, workflowId, { input: { message: "Hello" } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
  });
});

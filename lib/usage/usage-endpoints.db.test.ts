import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, ErrorBody, UsageReport } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { usageSeeder } from "./__fixtures__/usage-seed";
import { readUsageQuery, usageEndpoints, type UsageEndpoints } from "./usage-endpoints";
import { createUsageService } from "./usage-service";

// Real runs: the runtime executes a workflow against the test LLM server, started with an API key
// as POST /api/workflows/:id/runs would be, and the usage endpoint reads what they recorded.
let kit: RunTestKit;
let endpoints: UsageEndpoints;
let ws: string;
let viewer: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  endpoints = usageEndpoints(() => createUsageService(kit.database.prisma));
  ws = await kit.database.createWorkspace();
  viewer = testMember(ws, "viewer");
});
afterAll(() => kit?.close());

const usageRequest = (query: string) => new Request(`http://localhost/api/usage?${query}`);

async function refusal(query: string): Promise<{ status: number; body: ErrorBody }> {
  const response = await endpoints.report(usageRequest(query), {}, viewer);
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

describe("GET /api/usage over real runs", () => {
  it("counts a run started with an API key under that key, and its model calls by model, to the run's own dollars", async () => {
    const seed = usageSeeder(kit.database);
    const key = await seed.createApiKey(ws, await seed.createUser("Script owner"), "Support script");
    const viaKey: Member = { ...testMember(ws, "editor"), via: "api-key", apiKeyId: key.id, keyWorkspaceId: ws };
    const workflowId = (
      await kit.database.repositories.workflows.create(ws, supportRoutingDocument("openai/gpt-4o-mini") as never)
    ).id;
    const finished: ApiRun[] = [];
    for (let index = 0; index < 2; index++) {
      kit.server.enqueue(
        { kind: "text", text: "support", usage: { prompt: 400 + index, completion: 3 } },
        { kind: "text", text: "A refund is on its way.", usage: { prompt: 90, completion: 12 + index } },
      );
      const response = await kit.endpoints.start(
        new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ input: { message: "My order arrived broken" }, wait: true }),
        }),
        { id: workflowId },
        viaKey,
      );
      expect(response.status).toBe(200);
      finished.push((await response.json()) as ApiRun);
    }
    expect(finished.map((run) => run.trigger)).toEqual([
      { kind: "api", apiKeyId: key.id },
      { kind: "api", apiKeyId: key.id },
    ]);
    const spent = finished.reduce((sum, run) => sum + run.cost!.total, 0);
    expect(spent).toBeGreaterThan(0);

    const byKey = (await (await endpoints.report(usageRequest("groupBy=apiKey"), {}, viewer)).json()) as UsageReport;
    expect(byKey.rows).toHaveLength(1);
    expect(byKey.rows[0]).toMatchObject({
      key: key.id,
      label: `Support script (${key.prefix}…)`,
      runs: 2,
      unpriced: false,
    });
    expect(Math.abs(byKey.rows[0]!.cost!.total - spent)).toBeLessThan(1e-9);
    expect(byKey.rows[0]!.tokens.total).toBe(finished.reduce((sum, run) => sum + run.tokens.total, 0));

    const byModel = (await (await endpoints.report(usageRequest("groupBy=model"), {}, viewer)).json()) as UsageReport;
    expect(byModel.rows.map((row) => [row.key, row.runs])).toEqual([["openai/gpt-4o-mini", 2]]);
    expect(Math.abs(byModel.rows[0]!.cost!.total - spent)).toBeLessThan(1e-9);
  });
});

describe("GET /api/usage refuses a bad query with 400 naming the parameter", () => {
  it.each([
    ["groupBy=user", "groupBy", /one of apiKey, workflow, model, trigger, day/],
    ["from=yesterday", "from", /must be a date/],
    ["to=2025-02-30T25:00:00Z", "to", /must be a date/],
    ["from=2025-03-10&to=2025-03-01", "to", /must be after from/],
    ["from=2025-03-01T10:00:00Z&to=2025-03-01T10:00:00Z", "to", /must be after from/],
    ["from=2024-01-01&to=2025-06-01", "from", /at most 366 days/],
    ["trigger=cron", "trigger", /one of editor, api/],
    ["groupBy=day&groupBy=model", "groupBy", /more than once/],
    ["group_by=day", "group_by", /not a parameter/],
  ])("%s", async (query, parameter, message) => {
    const { status, body } = await refusal(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.details?.[0]?.path).toBe(parameter);
    expect(body.error.details?.[0]?.message).toMatch(message);
    expect(body.error.message).toContain(parameter);
  });

  it("takes a year as the longest period, 30 days up to now by default, and whole UTC days for dates", () => {
    const now = () => new Date("2025-06-15T08:30:00.000Z");
    expect(readUsageQuery(usageRequest(""), now)).toEqual({
      from: new Date("2025-05-16T08:30:00.000Z"),
      to: new Date("2025-06-15T08:30:00.000Z"),
      groupBy: "apiKey",
    });
    expect(
      readUsageQuery(usageRequest("from=2024-06-01&to=2025-05-31&groupBy=day&trigger=api&workflowId="), now),
    ).toEqual({
      from: new Date("2024-06-01T00:00:00.000Z"),
      to: new Date("2025-06-01T00:00:00.000Z"),
      groupBy: "day",
      trigger: "api",
    });
    expect(readUsageQuery(usageRequest("from=2025-06-01T09:00:00%2B02:00"), now).from).toEqual(
      new Date("2025-06-01T07:00:00.000Z"),
    );
  });

  it("answers 401 without a caller", async () => {
    const response = await endpoints.report(usageRequest("groupBy=day"), {});
    expect(response.status).toBe(401);
  });
});

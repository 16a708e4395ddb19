import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, ApiSpan, ModelList, WorkspaceRole } from "@/contract";
import { roundDollars } from "@/executor";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { resolvePricing } from "@/providers";
import { loadRunEnvironment } from "@/lib/runtime/run-environment";
import { priceEndpoints, type PriceEndpoints } from "./price-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/**
 * A workspace's own prices, end to end: set over the API, charged on a real run against the test
 * LLM server, marked on the model span and in the model list; another workspace never sees them.
 */

let kit: RunTestKit;
let prices: PriceEndpoints;
let a: string;
let b: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  // The server has an OpenAI key only; a workspace may store its own keys as secrets.
  const processEnv = (name: string) => (name === "OPENAI_API_KEY" ? "sk-server" : undefined);
  prices = priceEndpoints(
    () => kit.database.repositories.priceOverrides,
    async (workspace) =>
      (await loadRunEnvironment(kit.database.repositories.secrets, workspace, processEnv)).providerEnv,
    auditRequestsTo(() => kit.database.prisma),
  );
  a = await kit.database.createWorkspace("A");
  b = await kit.database.createWorkspace("B");
});
afterAll(() => kit.close());

const as = (workspace: string, role: WorkspaceRole = "admin") =>
  testMember(workspace, role, { userId: `user-of-${workspace}` });

function put(workspace: string, model: string, body: unknown, role: WorkspaceRole = "admin") {
  const request = new Request(`http://localhost/api/prices/${model}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return prices.put(request, { model }, as(workspace, role));
}

async function modelList(workspace: string): Promise<ModelList> {
  return (await (
    await prices.models(new Request("http://localhost/api/models"), {}, as(workspace, "viewer"))
  ).json()) as ModelList;
}

/** Start -> one agent on `model`, run with wait in `workspace`: the finished run as GET /api/runs/:id answers it. */
async function runAgent(
  workspace: string,
  model: string,
  usage: { prompt: number; completion: number },
): Promise<ApiRun> {
  const document = {
    name: "Priced",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: {},
      },
      {
        id: "agent",
        type: "agent",
        name: "Agent",
        position: { x: 200, y: 0 },
        parentId: null,
        enabled: true,
        config: { model, userPrompt: "Say hi" },
      },
    ],
    edges: [{ id: "e1", source: "start", target: "agent" }],
  };
  const workflowId = (await kit.database.repositories.workflows.create(workspace, document as never)).id;
  kit.server.enqueue({ kind: "text", text: "Hi", usage });
  const response = await kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ wait: true }),
    }),
    { id: workflowId },
    as(workspace, "editor"),
  );
  const run = (await response.json()) as ApiRun;
  expect(run.status).toBe("succeeded");
  return run;
}

const modelSpan = (run: ApiRun): ApiSpan => run.spans.find((span) => span.kind === "model")!;

describe("a workspace's price overrides", () => {
  it("charge its run's model call at the override's rate exactly, marked workspace-override, and leave another workspace on the catalog", async () => {
    expect((await put(a, "openai/gpt-4o-mini", { input: 2, output: 8, note: "Negotiated" })).status).toBe(200);
    const usage = { prompt: 1234, completion: 56 };

    const inA = await runAgent(a, "openai/gpt-4o-mini", usage);
    const expected = {
      input: roundDollars((1234 * 2) / 1e6),
      output: roundDollars((56 * 8) / 1e6),
      total: roundDollars((1234 * 2 + 56 * 8) / 1e6),
    };
    expect(modelSpan(inA)).toMatchObject({
      tokens: { prompt: 1234, completion: 56 },
      cost: expected,
      price: { source: "workspace-override", match: "openai/gpt-4o-mini", prices: { input: 2, output: 8 } },
    });
    expect(inA.cost).toEqual(expected);

    const inB = await runAgent(b, "openai/gpt-4o-mini", usage);
    const catalog = resolvePricing("openai/gpt-4o-mini")!.prices;
    expect(modelSpan(inB).price).toEqual({ source: "catalog", prices: catalog });
    expect(inB.cost?.total).toBe(roundDollars((1234 * catalog.input + 56 * catalog.output) / 1e6));
  });

  it("price a local model nobody else prices, through provider/*", async () => {
    expect((await runAgent(a, "openai-compatible/my-local-model", { prompt: 100, completion: 10 })).unpriced).toBe(
      true,
    );
    expect((await put(a, "openai-compatible/*", { input: 0.5, output: 1.5 })).status).toBe(200);

    const priced = await runAgent(a, "openai-compatible/my-local-model", { prompt: 100_000, completion: 10_000 });
    expect(priced.unpriced).toBe(false);
    expect(priced.cost).toEqual({ input: 0.05, output: 0.015, total: 0.065 });
    expect(modelSpan(priced).price).toEqual({
      source: "workspace-override",
      match: "openai-compatible/*",
      prices: { input: 0.5, output: 1.5 },
    });
    const elsewhere = await runAgent(b, "openai-compatible/my-local-model", { prompt: 100_000, completion: 10_000 });
    expect([elsewhere.cost, elsewhere.unpriced, modelSpan(elsewhere).price]).toEqual([null, true, undefined]);
  });

  it("show on the model list of their workspace only, with the catalog's version and date", async () => {
    const listA = await modelList(a);
    expect(listA.catalog).toEqual({
      source: "@pydantic/genai-prices",
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(listA.models.find((model) => model.id === "openai/gpt-4o-mini")).toMatchObject({
      prices: { input: 2, output: 8 },
      priceSource: "workspace-override",
    });
    const listB = await modelList(b);
    expect(listB.models.find((model) => model.id === "openai/gpt-4o-mini")).toMatchObject({
      prices: { input: 0.15, output: 0.6 },
      priceSource: "catalog",
    });
  });

  it("mark the models whose provider has no key for the workspace, naming the variable, from its secrets or the server's", async () => {
    await kit.database.repositories.secrets.set(a, "ANTHROPIC_API_KEY", "sk-ant-of-a");
    const [listA, listB] = [await modelList(a), await modelList(b)];
    const mark = (list: ModelList, id: string) => list.models.find((model) => model.id === id)?.missingSetting;
    expect(mark(listA, "anthropic/claude-sonnet-4-5")).toBeUndefined();
    expect(mark(listB, "anthropic/claude-sonnet-4-5")).toBe("ANTHROPIC_API_KEY");
    expect(mark(listB, "openai/gpt-4o")).toBeUndefined();
    expect(mark(listB, "google/gemini-2.5-flash")).toBe("GOOGLE_GENERATIVE_AI_API_KEY");
    expect(listB.models[0]).toMatchObject({ id: "offline/echo", offline: true });
    expect(mark(listB, "offline/echo")).toBeUndefined();
    expect(JSON.stringify(listA)).not.toContain("sk-");
  });

  it("are listed to every member, changed by admins and owners only, and removed", async () => {
    const listed = (await (
      await prices.list(new Request("http://localhost/api/prices"), {}, as(a, "viewer"))
    ).json()) as {
      overrides: Array<{ model: string; note: string | null; updatedBy: string | null }>;
    };
    expect(listed.overrides.map((override) => override.model)).toEqual(["openai-compatible/*", "openai/gpt-4o-mini"]);
    expect(listed.overrides[1]).toMatchObject({ note: "Negotiated", updatedBy: `user-of-${a}` });
    const empty = (await (
      await prices.list(new Request("http://localhost/api/prices"), {}, as(b, "viewer"))
    ).json()) as { overrides: unknown[] };
    expect(empty.overrides).toEqual([]);

    const byEditor = await put(a, "openai/gpt-4o", { input: 0, output: 0 }, "editor");
    expect(byEditor.status).toBe(403);
    const remove = (workspace: string, model: string) =>
      prices.remove(
        new Request(`http://localhost/api/prices/${model}`, { method: "DELETE" }),
        { model },
        as(workspace),
      );
    expect((await remove(b, "openai/gpt-4o-mini")).status).toBe(404);
    expect((await remove(a, "openai/gpt-4o-mini")).status).toBe(204);
    expect((await modelList(a)).models.find((model) => model.id === "openai/gpt-4o-mini")?.priceSource).toBe("catalog");
  });

  it("refuse a price that is negative or not a number, and a model that is not one, naming what is wrong", async () => {
    const refusals: Array<[string, unknown, string]> = [
      ["openai/gpt-4o-mini", { input: -1, output: 1 }, "input"],
      ["openai/gpt-4o-mini", { input: 1, output: "cheap" }, "output"],
      ["openai/gpt-4o-mini", { input: 1, output: 1, cachedInput: -0.5 }, "cachedInput"],
      ["openai/gpt-4o-mini", { input: 1 }, "output"],
      ["openai/not-a-model-at-all", { input: 1, output: 1 }, "model"],
      ["acme/model", { input: 1, output: 1 }, "model"],
    ];
    for (const [model, body, field] of refusals) {
      const answer = await put(a, model, body);
      const error = (
        (await answer.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } }
      ).error;
      expect([model, field, answer.status, error.details.map((detail) => detail.path)]).toEqual([
        model,
        field,
        400,
        [field],
      ]);
    }
    expect(
      (
        (await (await prices.list(new Request("http://localhost/api/prices"), {}, as(a))).json()) as {
          overrides: Array<{ model: string }>;
        }
      ).overrides.map((override) => override.model),
    ).toEqual(["openai-compatible/*"]);
  });
});

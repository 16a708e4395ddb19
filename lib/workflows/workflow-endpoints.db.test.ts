import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import {
  expectPagingRefusals,
  expectTimeAndIdOrder,
  firstCursor,
  nextMillisecond,
  readPage,
  walkPages,
} from "@/lib/http/__fixtures__/paging-checks";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

let database: TestDatabase;
let http: WorkflowEndpoints;
let workspaceId: string;
/** The editor every request comes from, unless a test says otherwise. */
const member = () => testMember(workspaceId);

beforeAll(async () => {
  database = await createTestDatabase();
  http = workflowEndpoints(
    () => createWorkflowService(database.repositories),
    auditRequestsTo(() => database.prisma),
  );
  workspaceId = await database.createWorkspace();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.prisma.workflow.deleteMany();
});

const start = {
  id: "start",
  type: "start",
  name: "Start",
  position: { x: 0, y: 0 },
  config: { inputs: [{ name: "message", type: "string" }] },
};
const agent = {
  id: "agent1",
  type: "agent",
  name: "Support Agent",
  position: { x: 200, y: 0 },
  config: { model: "offline/echo", userPrompt: "<start.message>" },
};
const valid = { name: "Support", blocks: [start, agent], edges: [{ id: "e1", source: "start", target: "agent1" }] };

function post(body: unknown, init: { raw?: string; headers?: Record<string, string> } = {}) {
  return http.create(
    new Request("http://localhost/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json", ...init.headers },
      body: init.raw ?? JSON.stringify(body),
    }),
    {},
    member(),
  );
}

function put(id: string, body: unknown) {
  return http.update(
    new Request(`http://localhost/api/workflows/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { id },
    member(),
  );
}

const get = (id: string) => http.get(new Request(`http://localhost/api/workflows/${id}`), { id }, member());

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; details: Array<{ path: string; message: string }> };
  };
  return body.error;
}

const stored = () => database.prisma.workflow.count();

describe("workflow API", () => {
  it("creates, gets, lists, updates and deletes a workflow", async () => {
    const created = await post(valid);
    expect(created.status).toBe(201);
    const workflow = (await created.json()) as { id: string; version: number; blocks: unknown[] };
    expect(workflow).toMatchObject({ name: "Support", version: 1, blocks: [{ id: "start" }, { id: "agent1" }] });

    expect(await (await get(workflow.id)).json()).toMatchObject({ id: workflow.id, name: "Support" });
    const listed = (await (await http.list(new Request("http://localhost/api/workflows"), {}, member())).json()) as {
      workflows: unknown[];
    };
    expect(listed.workflows).toEqual([expect.objectContaining({ id: workflow.id, name: "Support", version: 1 })]);

    const updated = await put(workflow.id, { ...valid, name: "Support v2", version: 1 });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ name: "Support v2", version: 2 });

    expect(
      (
        await http.remove(
          new Request(`http://localhost/api/workflows/${workflow.id}`, { method: "DELETE" }),
          { id: workflow.id },
          member(),
        )
      ).status,
    ).toBe(204);
    expect((await get(workflow.id)).status).toBe(404);
    expect(await stored()).toBe(0);
  });

  it("answers 404 with a message for an unknown id", async () => {
    const response = await get("no-such-workflow");
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain("no-such-workflow");
  });

  const rejections: Array<{
    name: string;
    body?: unknown;
    raw?: string;
    status: number;
    path: string;
    message: RegExp;
  }> = [
    { name: "a body that is not JSON", raw: "{ not json", status: 400, path: "", message: /not valid JSON/ },
    { name: "a document that is not an object", body: [1, 2], status: 400, path: "", message: /must be a JSON object/ },
    {
      name: "a malformed document (blocks not an array)",
      body: { name: "x", blocks: "nope", edges: [] },
      status: 400,
      path: "blocks",
      message: /array/i,
    },
    {
      name: "a block id with bad characters",
      body: { ...valid, blocks: [start, { ...agent, id: "bad id!" }], edges: [] },
      status: 400,
      path: "blocks[1].id",
      message: /A-Z/,
    },
    {
      name: "a dangling edge",
      body: { ...valid, edges: [{ id: "e1", source: "start", target: "ghost" }] },
      status: 400,
      path: "edges[0].target",
      message: /ghost/,
    },
    {
      name: "duplicate block ids",
      body: { ...valid, blocks: [start, agent, { ...agent, name: "Other" }] },
      status: 400,
      path: "blocks[2].id",
      message: /agent1/,
    },
    {
      name: "duplicate block names ignoring case and spaces",
      body: { ...valid, blocks: [start, agent, { ...agent, id: "agent2", name: "supportagent" }] },
      status: 400,
      path: "blocks[2].name",
      message: /supportagent|Support Agent/i,
    },
    {
      name: "an unknown block type",
      body: { ...valid, blocks: [start, { ...agent, type: "teleporter" }] },
      status: 400,
      path: "blocks[1].type",
      message: /teleporter/,
    },
    {
      name: "a cycle outside a loop container",
      body: {
        ...valid,
        blocks: [start, agent, { ...agent, id: "agent2", name: "Second" }],
        edges: [
          { id: "e1", source: "start", target: "agent1" },
          { id: "e2", source: "agent1", target: "agent2" },
          { id: "e3", source: "agent2", target: "agent1" },
        ],
      },
      status: 400,
      path: "edges",
      message: /cycle/i,
    },
    {
      name: "too many blocks",
      body: {
        name: "huge",
        blocks: Array.from({ length: 2_001 }, (_, index) => ({ ...agent, id: `b${index}`, name: `B ${index}` })),
        edges: [],
      },
      status: 413,
      path: "blocks",
      message: /2,001 blocks; the limit is 2,000/,
    },
    {
      name: "a body over 5 MB",
      raw: JSON.stringify({ ...valid, description: "x".repeat(5 * 1024 * 1024) }),
      status: 413,
      path: "",
      message: /over the 5\.0 MB limit/,
    },
  ];

  for (const rejection of rejections) {
    it(`refuses ${rejection.name} with ${rejection.status}, a message and a path, and stores nothing`, async () => {
      const response = await post(rejection.body, rejection.raw === undefined ? {} : { raw: rejection.raw });
      expect(response.status).toBe(rejection.status);
      const error = await errorOf(response);
      expect(error.message.length).toBeGreaterThan(10);
      const texts = [error.message, ...(error.details ?? []).map((detail) => `${detail.path} ${detail.message}`)].join(
        "\n",
      );
      expect(texts).toMatch(rejection.message);
      if (rejection.path)
        expect((error.details ?? []).map((detail) => detail.path).some((path) => path.startsWith(rejection.path))).toBe(
          true,
        );
      expect(await stored()).toBe(0);
    });
  }

  it("stores a draft whose block config is unfinished and returns the problems as issues", async () => {
    const draft = { ...valid, blocks: [start, { ...agent, config: { model: "offline/echo", temperature: 9 } }] };
    const response = await post(draft);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; issues: Array<{ path: string; message: string }> };
    expect(body.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(["blocks[1].config.userPrompt", "blocks[1].config.temperature"]),
    );
    expect(body.issues.find((issue) => issue.path === "blocks[1].config.userPrompt")?.message).toMatch(/Support Agent/);
    expect(await stored()).toBe(1);
  });

  it("refuses an invalid update with 400 and leaves the stored workflow as it was", async () => {
    const created = (await (await post(valid)).json()) as { id: string };
    const response = await put(created.id, {
      ...valid,
      edges: [{ id: "e1", source: "start", target: "ghost" }],
      version: 1,
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details.some((detail) => detail.path === "edges[0].target")).toBe(true);
    expect(await (await get(created.id)).json()).toMatchObject({ version: 1, edges: [{ target: "agent1" }] });
  });

  it("refuses an update without a version", async () => {
    const created = (await (await post(valid)).json()) as { id: string };
    const response = await put(created.id, valid);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details[0]?.path).toBe("version");
  });

  it("gives one 200 and one 409 to two concurrent updates from the same version, and the 409 carries the winner", async () => {
    const created = (await (await post(valid)).json()) as { id: string };
    const [first, second] = await Promise.all([
      put(created.id, { ...valid, name: "From tab A", version: 1 }),
      put(created.id, { ...valid, name: "From tab B", version: 1 }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    const winner = first.status === 200 ? first : second;
    const winnerBody = (await winner.json()) as { name: string; version: number };
    const conflict = (await loser.json()) as {
      error: { code: string; message: string; current: { name: string; version: number } };
    };
    expect(conflict.error.code).toBe("version_conflict");
    expect(conflict.error.message).toMatch(/version 2, not 1/);
    expect(conflict.error.current).toMatchObject({ name: winnerBody.name, version: 2 });
    expect(await (await get(created.id)).json()).toMatchObject({ name: winnerBody.name, version: 2 });
  });
});

describe("workflow API paging", () => {
  const listAs = (as: ReturnType<typeof testMember>) => (query: string) =>
    http.list(new Request(`http://localhost/api/workflows${query}`), {}, as);
  const makeWorkflows = (workspace: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        database.repositories.workflows.create(workspace, { ...valid, name: `Flow ${index}` } as never),
      ),
    );

  it("walks every workflow exactly once, most recently updated first, page by page", async () => {
    const created = await makeWorkflows(workspaceId, 7);
    const { items, pages } = await walkPages<{ id: string; updatedAt: string }>(listAs(member()), "workflows", 3);
    expect(pages).toBe(3);
    expect(items.map((item) => item.id).sort()).toEqual(created.map((workflow) => workflow.id).sort());
    expectTimeAndIdOrder(
      items,
      (item) => item.updatedAt,
      (item) => item.id,
      "desc",
    );
    const whole = await readPage(listAs(member()), {});
    expect(whole.nextCursor).toBeNull();
    expect((whole.workflows as Array<{ id: string }>).map((item) => item.id)).toEqual(items.map((item) => item.id));
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    await expectPagingRefusals(listAs(member()));
  });

  it("scopes a page by the caller's workspace whatever cursor it carries", async () => {
    const other = await database.createWorkspace("Other");
    const theirs = await makeWorkflows(other, 2);
    await nextMillisecond();
    await makeWorkflows(workspaceId, 3);
    // A cursor from the newest of ours: everything of theirs is older, and only theirs comes back.
    const cursor = await firstCursor(listAs(member()), 1);
    const page = await readPage(listAs(testMember(other)), { cursor });
    expect((page.workflows as Array<{ id: string }>).map((item) => item.id).sort()).toEqual(
      theirs.map((workflow) => workflow.id).sort(),
    );
  });
});

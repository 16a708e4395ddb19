import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
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
import { runEndpoints, type RunEndpoints } from "./run-endpoints";

// Listing reads storage only, so the endpoints run without a runtime: the runs are stored as a run would leave them.
let database: TestDatabase;
let endpoints: RunEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  endpoints = runEndpoints(() => ({ runs: undefined as never, repositories: database.repositories }));
});
afterAll(() => database?.close());

const document = { name: "Listed", description: "", variables: {}, blocks: [], edges: [] };

async function workflowWithRuns(count: number, status: "succeeded" | "failed" = "succeeded") {
  const workspaceId = await database.createWorkspace();
  const workflowId = (await database.repositories.workflows.create(workspaceId, document)).id;
  const runIds = await storeRuns(workspaceId, workflowId, count, status);
  return { workspaceId, workflowId, runIds, member: testMember(workspaceId, "viewer") };
}

async function storeRuns(
  workspaceId: string,
  workflowId: string,
  count: number,
  status: "succeeded" | "failed" = "succeeded",
): Promise<string[]> {
  const ids: string[] = [];
  // One after another, as runs are asked for: several share a millisecond, so the id breaks ties.
  for (let index = 0; index < count; index++)
    ids.push((await database.repositories.runs.create({ workspaceId, workflowId, status })).id);
  return ids;
}

const listOf = (workflowId: string, as: Member) => (query: string) =>
  endpoints.list(new Request(`http://localhost/api/workflows/${workflowId}/runs${query}`), { id: workflowId }, as);

type Listed = { id: string; status: string };

describe("GET /api/workflows/:id/runs, page by page", () => {
  it("walks every run exactly once, newest first, where it used to stop at the newest 50", async () => {
    const { workspaceId, workflowId, runIds, member } = await workflowWithRuns(57);
    const { items, pages } = await walkPages<Listed>(listOf(workflowId, member), "runs", 20);
    expect(pages).toBe(3);
    expect(new Set(items.map((run) => run.id)).size).toBe(57);
    expect(items.map((run) => run.id).sort()).toEqual([...runIds].sort());
    const queued = new Map(
      (await database.prisma.run.findMany({ where: { workspaceId }, select: { id: true, queuedAt: true } })).map(
        (run) => [run.id, run.queuedAt.toISOString()],
      ),
    );
    expectTimeAndIdOrder(
      items,
      (run) => queued.get(run.id)!,
      (run) => run.id,
      "desc",
    );

    const first = await readPage(listOf(workflowId, member), {});
    expect(first.runs).toHaveLength(50);
    expect((first.runs as Listed[]).map((run) => run.id)).toEqual(items.slice(0, 50).map((run) => run.id));
  });

  it("neither repeats nor skips a run when new ones start while a client walks the pages", async () => {
    const { workspaceId, workflowId, runIds, member } = await workflowWithRuns(9);
    const list = listOf(workflowId, member);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await readPage(list, { limit: "4", ...(cursor ? { cursor } : {}) });
      seen.push(...(page.runs as Listed[]).map((run) => run.id));
      cursor = page.nextCursor;
      await storeRuns(workspaceId, workflowId, 2);
    } while (cursor);
    expect(seen.sort()).toEqual([...runIds].sort());
  });

  it("pages within a status filter", async () => {
    const { workspaceId, workflowId, member } = await workflowWithRuns(3);
    const failed = await storeRuns(workspaceId, workflowId, 5, "failed");
    const { items } = await walkPages<Listed>(listOf(workflowId, member), "runs", 2, { status: "failed" });
    expect(items.map((run) => run.id).sort()).toEqual([...failed].sort());
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    const { workflowId, member } = await workflowWithRuns(1);
    await expectPagingRefusals(listOf(workflowId, member));
  });

  it("lists only the caller's workspace's runs whatever cursor it carries", async () => {
    const theirs = await workflowWithRuns(3);
    await nextMillisecond();
    const ours = await workflowWithRuns(3);
    const cursor = await firstCursor(listOf(ours.workflowId, ours.member), 1);
    // Their runs are all older than our newest: with our cursor they see their own, never ours.
    const page = await readPage(listOf(theirs.workflowId, theirs.member), { cursor });
    expect((page.runs as Listed[]).map((run) => run.id).sort()).toEqual([...theirs.runIds].sort());
    const foreign = await listOf(ours.workflowId, theirs.member)(`?cursor=${cursor}`);
    expect(foreign.status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { expectPagingRefusals, nextMillisecond, readPage, walkPages } from "@/lib/http/__fixtures__/paging-checks";
import { testMember } from "@/lib/http/test-members";
import type { RunStatus, RunTriggerKind, WorkspaceRunSummary } from "@/contract";
import { runEndpoints, type RunEndpoints } from "./run-endpoints";

// Listing reads storage only, so the endpoints run without a runtime: the runs are stored as a run would leave them.
let database: TestDatabase;
let endpoints: RunEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  endpoints = runEndpoints(() => ({ runs: undefined as never, repositories: database.repositories }));
});
afterAll(() => database?.close());

const documentNamed = (name: string) => ({ name, description: "", variables: {}, blocks: [], edges: [] });

async function workspaceWithWorkflows(...names: string[]) {
  const workspaceId = await database.createWorkspace();
  const workflowIds: string[] = [];
  for (const name of names)
    workflowIds.push((await database.repositories.workflows.create(workspaceId, documentNamed(name))).id);
  return { workspaceId, workflowIds, viewer: testMember(workspaceId, "viewer") };
}

async function storeRun(
  workspaceId: string,
  workflowId: string,
  status: RunStatus = "succeeded",
  kind: RunTriggerKind = "editor",
): Promise<string> {
  return (await database.repositories.runs.create({ workspaceId, workflowId, status, trigger: { kind } })).id;
}

const listAs = (member: Member) => (query: string) =>
  endpoints.listWorkspace(new Request(`http://localhost/api/runs${query}`), {}, member);

async function listed(member: Member, query: Record<string, string> = {}): Promise<WorkspaceRunSummary[]> {
  return (await readPage(listAs(member), query)).runs as WorkspaceRunSummary[];
}

describe("GET /api/runs, every run of the workspace", () => {
  it("lists the runs of all its workflows, newest first, each with its workflow's name, for a viewer", async () => {
    const { workspaceId, workflowIds, viewer } = await workspaceWithWorkflows("Support triage", "Nightly report");
    const [triage, report] = workflowIds as [string, string];
    const first = await storeRun(workspaceId, triage);
    await nextMillisecond();
    const second = await storeRun(workspaceId, report, "failed");
    await nextMillisecond();
    const third = await storeRun(workspaceId, triage, "running", "api");

    const runs = await listed(viewer);
    expect(runs.map((run) => [run.id, run.workflowName, run.status, run.trigger.kind])).toEqual([
      [third, "Support triage", "running", "api"],
      [second, "Nightly report", "failed", "editor"],
      [first, "Support triage", "succeeded", "editor"],
    ]);
  });

  it("filters by workflow, status and trigger kind, together", async () => {
    const { workspaceId, workflowIds, viewer } = await workspaceWithWorkflows("One", "Two");
    const [one, two] = workflowIds as [string, string];
    const wanted = await storeRun(workspaceId, one, "failed", "webhook");
    await storeRun(workspaceId, one, "failed", "editor");
    await storeRun(workspaceId, one, "succeeded", "webhook");
    await storeRun(workspaceId, two, "failed", "webhook");

    expect((await listed(viewer, { workflow: one })).map((run) => run.workflowId)).toEqual([one, one, one]);
    expect((await listed(viewer, { status: "failed" })).length).toBe(3);
    expect((await listed(viewer, { trigger: "webhook" })).length).toBe(3);
    expect(
      (await listed(viewer, { workflow: one, status: "failed", trigger: "webhook" })).map((run) => run.id),
    ).toEqual([wanted]);
    expect((await listed(viewer, { status: "failed,succeeded", trigger: "webhook" })).length).toBe(3);
  });

  it("pages every run exactly once with Load more's cursor", async () => {
    const { workspaceId, workflowIds, viewer } = await workspaceWithWorkflows("A", "B");
    const ids: string[] = [];
    for (let index = 0; index < 7; index++) ids.push(await storeRun(workspaceId, workflowIds[index % 2]!));
    const { items, pages } = await walkPages<WorkspaceRunSummary>(listAs(viewer), "runs", 3);
    expect(pages).toBe(3);
    expect(items.map((run) => run.id).sort()).toEqual([...ids].sort());
  });

  it("never shows another workspace's runs, and answers 404 for another workspace's workflow", async () => {
    const ours = await workspaceWithWorkflows("Ours");
    const theirs = await workspaceWithWorkflows("Theirs");
    const ourRun = await storeRun(ours.workspaceId, ours.workflowIds[0]!);
    await storeRun(theirs.workspaceId, theirs.workflowIds[0]!);

    expect((await listed(ours.viewer)).map((run) => run.id)).toEqual([ourRun]);
    const foreign = await listAs(ours.viewer)(`?workflow=${theirs.workflowIds[0]}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toContain(theirs.workflowIds[0]);
  });

  it("refuses an unknown status or trigger by name, and malformed paging", async () => {
    const { viewer } = await workspaceWithWorkflows("Refusals");
    const status = await listAs(viewer)("?status=done");
    expect(status.status).toBe(400);
    expect(((await status.json()) as { error: { message: string } }).error.message).toContain(
      'Unknown run status "done"',
    );
    const trigger = await listAs(viewer)("?trigger=cron");
    expect(trigger.status).toBe(400);
    expect(((await trigger.json()) as { error: { message: string } }).error.message).toContain(
      'Unknown trigger "cron"',
    );
    await expectPagingRefusals(listAs(viewer));
  });
});

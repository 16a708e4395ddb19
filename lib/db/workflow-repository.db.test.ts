import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/contract";
import { NotFoundError, VersionConflictError } from "./errors";
import { createTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase;
let ws: string;
beforeAll(async () => {
  database = await createTestDatabase();
  ws = await database.createWorkspace();
});
afterAll(async () => {
  await database?.close();
});

function documentNamed(name: string, extra: Partial<WorkflowDocument> = {}): WorkflowDocument {
  return {
    name,
    description: "",
    variables: { companyName: "Acme" },
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: { inputs: [] },
      },
      {
        id: "agent1",
        type: "agent",
        name: "Support Agent",
        position: { x: 240, y: 80 },
        parentId: null,
        enabled: true,
        config: { model: "offline/echo", userPrompt: "<start.question>" },
      },
    ],
    edges: [{ id: "e1", source: "start", target: "agent1", sourceHandle: "out" }],
    ...extra,
  };
}

describe("WorkflowRepository", () => {
  it("stores a workflow and reads back the same document at version 1", async () => {
    const { workflows } = database.repositories;
    const created = await workflows.create(ws, documentNamed("Customer support", { description: "Answers tickets" }));
    expect(created).toMatchObject({ version: 1, name: "Customer support", description: "Answers tickets" });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.createdAt)).not.toBeNaN();

    const loaded = await workflows.get(ws, created.id);
    expect(loaded).toEqual(created);
    expect(loaded.blocks[1]?.config).toEqual({ model: "offline/echo", userPrompt: "<start.question>" });
    expect(loaded.variables).toEqual({ companyName: "Acme" });
  });

  it("lists summaries, most recently updated first", async () => {
    const { workflows } = database.repositories;
    const first = await workflows.create(ws, documentNamed("List A"));
    const second = await workflows.create(ws, documentNamed("List B"));
    await workflows.update(ws, first.id, documentNamed("List A renamed"), 1);

    const listed = (await workflows.list(ws)).items;
    const ids = listed.map((summary) => summary.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    const summary = listed.find((item) => item.id === first.id);
    expect(summary).toEqual({
      id: first.id,
      name: "List A renamed",
      description: "",
      version: 2,
      createdAt: first.createdAt,
      updatedAt: expect.any(String),
    });
    expect(summary).not.toHaveProperty("blocks");
  });

  it("updates from the current version, bumping it, and refuses a stale version without storing", async () => {
    const { workflows } = database.repositories;
    const created = await workflows.create(ws, documentNamed("Versioned"));
    const updated = await workflows.update(
      ws,
      created.id,
      documentNamed("Versioned v2", { variables: { tone: "formal" } }),
      1,
    );
    expect(updated).toMatchObject({ id: created.id, version: 2, name: "Versioned v2", variables: { tone: "formal" } });

    const stale = workflows.update(ws, created.id, documentNamed("Lost edit"), 1);
    await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
    await expect(stale).rejects.toMatchObject({ code: "version_conflict", currentVersion: 2 });
    expect(await workflows.get(ws, created.id)).toEqual(updated);
  });

  it("of two concurrent updates from the same version, exactly one succeeds and the other conflicts", async () => {
    const { workflows } = database.repositories;
    const created = await workflows.create(ws, documentNamed("Contended"));
    const results = await Promise.allSettled([
      workflows.update(ws, created.id, documentNamed("Edit from tab A"), 1),
      workflows.update(ws, created.id, documentNamed("Edit from tab B"), 1),
    ]);
    const succeeded = results.filter((result) => result.status === "fulfilled");
    const failed = results.filter((result) => result.status === "rejected");
    expect(succeeded).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(VersionConflictError);

    const winner = (succeeded[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof workflows.update>>>).value;
    const stored = await workflows.get(ws, created.id);
    expect(stored.version).toBe(2);
    expect(stored.name).toBe(winner.name);
    expect(stored).toEqual(winner);
  });

  it("reports unknown ids as not found", async () => {
    const { workflows } = database.repositories;
    await expect(workflows.get(ws, "no-such-workflow")).rejects.toBeInstanceOf(NotFoundError);
    await expect(workflows.update(ws, "no-such-workflow", documentNamed("x"), 1)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(workflows.delete(ws, "no-such-workflow")).rejects.toMatchObject({ code: "not_found" });
  });

  it("deletes a workflow together with its runs", async () => {
    const { workflows, runs } = database.repositories;
    const created = await workflows.create(ws, documentNamed("Doomed"));
    const run = await runs.create({ workspaceId: ws, workflowId: created.id, input: {} });
    await workflows.delete(ws, created.id);
    await expect(workflows.get(ws, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(runs.get(ws, run.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await workflows.list(ws)).items.some((item) => item.id === created.id)).toBe(false);
  });

  it("keeps each workspace's workflows to itself: another workspace cannot list, get, update or delete them", async () => {
    const { workflows } = database.repositories;
    const other = await database.createWorkspace("Other");
    const mine = await workflows.create(ws, documentNamed("Mine"));
    const theirs = await workflows.create(other, documentNamed("Theirs"));

    expect((await workflows.list(other)).items.map((item) => item.id)).toEqual([theirs.id]);
    expect((await workflows.list(ws)).items.some((item) => item.id === theirs.id)).toBe(false);
    await expect(workflows.get(other, mine.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(workflows.update(other, mine.id, documentNamed("Hijacked"), 1)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(workflows.delete(other, mine.id)).rejects.toMatchObject({ code: "not_found" });

    // Untouched in its own workspace.
    expect(await workflows.get(ws, mine.id)).toEqual(mine);
  });
});

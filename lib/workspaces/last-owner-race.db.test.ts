import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceRole } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { workspaceEndpoints, type WorkspaceEndpoints } from "./workspace-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/**
 * The last-owner rule under concurrency: two owners who demote or remove each other at the same
 * moment must not both succeed. Fired truly at once (Promise.all over separate transactions), many
 * rounds, on whichever database the run uses (embedded by default, PostgreSQL with DATABASE_URL).
 */

const ROUNDS = 25;

let database: TestDatabase;
let http: WorkspaceEndpoints;

beforeAll(async () => {
  database = await createTestDatabase();
  http = workspaceEndpoints(
    () => ({ workspaces: database.repositories.workspaces }),
    auditRequestsTo(() => database.prisma),
  );
});
afterAll(() => database.close());

async function workspaceWithOwners(count: number) {
  const workspaceId = await database.createWorkspace();
  const owners: { userId: string; email: string }[] = [];
  for (let index = 0; index < count; index++) {
    const userId = randomUUID();
    const email = `owner-${userId.slice(0, 8)}@example.com`;
    await database.prisma.user.create({ data: { id: userId, name: `Owner ${index}`, email } });
    await database.prisma.workspaceMember.create({ data: { workspaceId, userId, role: "owner" } });
    owners.push({ userId, email });
  }
  return { workspaceId, owners };
}

const ownersOf = (workspaceId: string) =>
  database.prisma.workspaceMember.count({ where: { workspaceId, role: "owner" } });

function demote(
  workspaceId: string,
  by: { userId: string; email: string },
  target: string,
  role: WorkspaceRole = "admin",
) {
  const request = new Request(`http://localhost/api/workspaces/${workspaceId}/members/${target}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ role }),
  });
  return http.changeRole(request, { workspaceId, userId: target }, testMember(workspaceId, "owner", by));
}

function remove(workspaceId: string, by: { userId: string; email: string }, target: string) {
  const request = new Request(`http://localhost/api/workspaces/${workspaceId}/members/${target}`, { method: "DELETE" });
  return http.removeMember(request, { workspaceId, userId: target }, testMember(workspaceId, "owner", by));
}

describe("the last owner under concurrent changes", () => {
  it("two owners demoting each other at once: one succeeds, the other (no longer an owner) is refused, one owner remains", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { workspaceId, owners } = await workspaceWithOwners(2);
      const [a, b] = owners as [(typeof owners)[0], (typeof owners)[0]];
      const statuses = (await Promise.all([demote(workspaceId, a, b.userId), demote(workspaceId, b, a.userId)])).map(
        (response) => response.status,
      );
      expect(statuses.sort()).toEqual([200, 403]);
      expect(await ownersOf(workspaceId)).toBe(1);
    }
  });

  it("two owners leaving at once, or one removing the other as it demotes the first: one owner remains", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const leaving = await workspaceWithOwners(2);
      const [a, b] = leaving.owners as [(typeof leaving.owners)[0], (typeof leaving.owners)[0]];
      const left = await Promise.all([
        remove(leaving.workspaceId, a, a.userId),
        remove(leaving.workspaceId, b, b.userId),
      ]);
      expect(left.map((response) => response.status).sort()).toEqual([204, 409]);
      expect(await ownersOf(leaving.workspaceId)).toBe(1);

      const mixed = await workspaceWithOwners(2);
      const [c, d] = mixed.owners as [(typeof mixed.owners)[0], (typeof mixed.owners)[0]];
      const crossed = await Promise.all([
        remove(mixed.workspaceId, c, d.userId),
        demote(mixed.workspaceId, d, c.userId, "viewer"),
      ]);
      // Whichever runs second acts as someone no longer an owner (demoted to viewer, or removed).
      expect(crossed.map((response) => response.status).filter((status) => status === 403)).toHaveLength(1);
      expect(await ownersOf(mixed.workspaceId)).toBe(1);
    }
  });

  it("an owner demoted a moment ago cannot still demote others on the strength of the role it had", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { workspaceId, owners } = await workspaceWithOwners(3);
      const [a, b] = owners as [(typeof owners)[0], (typeof owners)[0]];
      await Promise.all([demote(workspaceId, a, b.userId), demote(workspaceId, b, a.userId)]);
      // With three owners both demotions pass the last-owner rule, but whichever ran second was made by someone no longer an owner.
      expect(await ownersOf(workspaceId)).toBe(2);
    }
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceInvitation, WorkspaceMember, WorkspaceSummary } from "@/contract";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import {
  expectPagingRefusals,
  expectTimeAndIdOrder,
  firstCursor,
  nextMillisecond,
  readPage,
  walkPages,
  type PageFetch,
} from "@/lib/http/__fixtures__/paging-checks";
import { testMember } from "@/lib/http/test-members";
import { workspaceEndpoints, type WorkspaceEndpoints } from "./workspace-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/** The two lists of workspaces: a person's workspaces, and a workspace's members with its open invitations. */

let database: TestDatabase;
let http: WorkspaceEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  http = workspaceEndpoints(
    () => ({ workspaces: database.repositories.workspaces }),
    auditRequestsTo(() => database.prisma),
  );
});
afterAll(() => database?.close());

async function makeUser(): Promise<string> {
  const userId = randomUUID();
  await database.prisma.user.create({
    data: { id: userId, name: `User ${userId.slice(0, 6)}`, email: `${userId}@example.com` },
  });
  return userId;
}

/** A user who belongs to `count` workspaces. */
async function userInWorkspaces(count: number): Promise<{ member: Member; workspaceIds: string[] }> {
  const userId = await makeUser();
  const workspaceIds: string[] = [];
  for (let index = 0; index < count; index++)
    workspaceIds.push((await database.repositories.workspaces.create(userId, `Workspace ${index}`)).id);
  return { member: testMember("", "viewer", { userId }), workspaceIds };
}

/** A workspace with `members` people and `invitations` open invitations (an expired and an accepted one besides, never listed). */
async function workspaceWithPeople(members: number, invitations: number) {
  const workspaceId = await database.createWorkspace();
  const userIds: string[] = [];
  for (let index = 0; index < members; index++) {
    const userId = await makeUser();
    await database.prisma.workspaceMember.create({
      data: { workspaceId, userId, role: index === 0 ? "owner" : "editor" },
    });
    userIds.push(userId);
  }
  const invite = (email: string, expiresAt: Date, acceptedAt: Date | null = null) =>
    database.prisma.workspaceInvitation.create({
      data: { workspaceId, email, role: "viewer", tokenHash: randomUUID(), expiresAt, acceptedAt },
    });
  const soon = new Date(Date.now() + 3_600_000);
  const invitationIds: string[] = [];
  for (let index = 0; index < invitations; index++)
    invitationIds.push((await invite(`invitee-${index}-${randomUUID()}@example.com`, soon)).id);
  await invite("expired@example.com", new Date(Date.now() - 1000));
  await invite("accepted@example.com", soon, new Date());
  return { workspaceId, userIds, invitationIds, member: testMember(workspaceId, "viewer", { userId: userIds[0] }) };
}

const workspacesOf = (as: Member) => (query: string) =>
  http.list(new Request(`http://localhost/api/workspaces${query}`), {}, as);
const membersOf = (workspaceId: string, as: Member) => (query: string) =>
  http.members(new Request(`http://localhost/api/workspaces/${workspaceId}/members${query}`), { workspaceId }, as);

interface MembersPage {
  members: WorkspaceMember[];
  invitations: WorkspaceInvitation[];
  nextCursor: string | null;
}

/** Both lists, walked `limit` at a time with the one cursor. */
async function walkMembers(fetchPage: PageFetch, limit: number) {
  const members: WorkspaceMember[] = [];
  const invitations: WorkspaceInvitation[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = (await readPage(fetchPage, {
      limit: String(limit),
      ...(cursor ? { cursor } : {}),
    })) as unknown as MembersPage;
    expect(page.members.length).toBeLessThanOrEqual(limit);
    expect(page.invitations.length).toBeLessThanOrEqual(limit);
    members.push(...page.members);
    invitations.push(...page.invitations);
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { members, invitations, pages };
}

describe("GET /api/workspaces, page by page", () => {
  it("walks every workspace of the caller exactly once, in the order joined", async () => {
    const { member, workspaceIds } = await userInWorkspaces(7);
    const { items, pages } = await walkPages<WorkspaceSummary>(workspacesOf(member), "workspaces", 3);
    expect(pages).toBe(3);
    expect(items.map((workspace) => workspace.id).sort()).toEqual([...workspaceIds].sort());
    const whole = await readPage(workspacesOf(member), {});
    expect((whole.workspaces as WorkspaceSummary[]).map((workspace) => workspace.id)).toEqual(
      items.map((workspace) => workspace.id),
    );
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    await expectPagingRefusals(workspacesOf((await userInWorkspaces(1)).member));
  });

  it("lists only the caller's workspaces whatever cursor it carries", async () => {
    const ours = await userInWorkspaces(2);
    await nextMillisecond();
    const theirs = await userInWorkspaces(2);
    const cursor = await firstCursor(workspacesOf(ours.member), 1);
    // Their workspaces were all joined after our first: with our cursor they see both of theirs, never ours.
    const page = await readPage(workspacesOf(theirs.member), { cursor });
    expect((page.workspaces as WorkspaceSummary[]).map((workspace) => workspace.id).sort()).toEqual(
      [...theirs.workspaceIds].sort(),
    );
  });
});

describe("GET /api/workspaces/:id/members, page by page", () => {
  it("walks every member (oldest first) and open invitation (newest first) exactly once with one cursor", async () => {
    const { workspaceId, userIds, invitationIds, member } = await workspaceWithPeople(7, 4);
    const { members, invitations, pages } = await walkMembers(membersOf(workspaceId, member), 3);
    expect(pages).toBe(3);
    expect(members.map((person) => person.userId).sort()).toEqual([...userIds].sort());
    expectTimeAndIdOrder(
      members,
      (person) => person.joinedAt,
      (person) => person.userId,
      "asc",
    );
    expect(invitations.map((invitation) => invitation.id).sort()).toEqual([...invitationIds].sort());
    expectTimeAndIdOrder(
      invitations,
      (invitation) => invitation.createdAt,
      (invitation) => invitation.id,
      "desc",
    );
  });

  it("answers both lists whole on one page when they fit, as it always did", async () => {
    const { workspaceId, member } = await workspaceWithPeople(2, 1);
    const page = (await readPage(membersOf(workspaceId, member), {})) as unknown as MembersPage;
    expect({ members: page.members.length, invitations: page.invitations.length, nextCursor: page.nextCursor }).toEqual(
      {
        members: 2,
        invitations: 1,
        nextCursor: null,
      },
    );
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    const { workspaceId, member } = await workspaceWithPeople(1, 0);
    await expectPagingRefusals(membersOf(workspaceId, member));
  });

  it("lists only the caller's workspace's people whatever cursor it carries", async () => {
    const ours = await workspaceWithPeople(3, 3);
    await nextMillisecond();
    const theirs = await workspaceWithPeople(3, 0);
    const cursor = await firstCursor(membersOf(ours.workspaceId, ours.member), 1);
    // Their members joined after our first: they all come back, and none of our people.
    const page = (await readPage(membersOf(theirs.workspaceId, theirs.member), { cursor })) as unknown as MembersPage;
    expect(page.members.map((person) => person.userId).sort()).toEqual([...theirs.userIds].sort());
    expect(page.invitations).toEqual([]);
  });
});

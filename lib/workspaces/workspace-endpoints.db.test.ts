import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CreatedInvitation,
  InvitationPreview,
  WorkspaceMembers,
  WorkspaceRole,
  WorkspaceSummary,
} from "@/contract";
import { createAuth, type TrellisAuth } from "@/lib/auth/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { invitationEndpoints, type InvitationEndpoints } from "./invitation-endpoints";
import { workspaceEndpoints, type WorkspaceEndpoints } from "./workspace-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/** Members and invitations over a test database: who may do what, and what each refusal says. */

let database: TestDatabase;
let auth: TrellisAuth;
let http: WorkspaceEndpoints;
let links: InvitationEndpoints;
let workspaceId: string;
let owner: { userId: string; email: string };
let admin: { userId: string; email: string };

async function makeUser(name: string): Promise<{ userId: string; email: string }> {
  const userId = randomUUID();
  const email = `${name.toLowerCase()}-${userId.slice(0, 8)}@example.com`;
  await database.prisma.user.create({ data: { id: userId, name, email } });
  return { userId, email };
}

async function join(userId: string, role: WorkspaceRole, workspace = workspaceId) {
  await database.prisma.workspaceMember.create({ data: { workspaceId: workspace, userId, role } });
}

const json = (body: unknown, method = "POST") => ({
  method,
  headers: { "content-type": "application/json", host: "127.0.0.1:3000" },
  body: JSON.stringify(body),
});
const url = (path: string) => `http://localhost/api/workspaces/${workspaceId}${path}`;
const actor = (user: { userId: string; email: string }, role: WorkspaceRole) => testMember(workspaceId, role, user);

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

async function invite(email: string, role: WorkspaceRole, as = actor(owner, "owner")) {
  return http.invite(new Request(url("/members"), json({ email, role })), { workspaceId }, as);
}

const tokenOf = (invitation: CreatedInvitation) => decodeURIComponent(invitation.link.split("/invite/")[1]!);

beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuth({ prisma: database.prisma, secret: randomBytes(32).toString("hex") });
  http = workspaceEndpoints(
    () => ({ workspaces: database.repositories.workspaces }),
    auditRequestsTo(() => database.prisma),
  );
  links = invitationEndpoints(() => ({
    workspaces: database.repositories.workspaces,
    prisma: database.prisma,
    session: async () => null,
    createUser: (user) => auth.createUser(user),
  }));
  owner = await makeUser("Olive");
  admin = await makeUser("Adam");
  workspaceId = await database.createWorkspace("Team");
  await join(owner.userId, "owner");
  await join(admin.userId, "admin");
});
afterAll(() => database.close());

describe("workspaces", () => {
  it("lists the caller's workspaces with the caller's role, and makes new ones owned by the caller", async () => {
    const created = await http.create(
      new Request("http://localhost/api/workspaces", json({ name: "  Side project " })),
      {},
      testMember("", "viewer", admin),
    );
    expect(created.status).toBe(201);
    const side = (await created.json()) as WorkspaceSummary;
    expect(side).toMatchObject({ name: "Side project", role: "owner" });
    const listed = (await (
      await http.list(new Request("http://localhost/api/workspaces"), {}, testMember("", "viewer", admin))
    ).json()) as {
      workspaces: WorkspaceSummary[];
    };
    expect(listed.workspaces.map(({ name, role }) => [name, role])).toEqual([
      ["Team", "admin"],
      ["Side project", "owner"],
    ]);
  });
});

describe("invitations", () => {
  it("gives the admin a link; the invitee previews it, creates an account and becomes a member with the role", async () => {
    const response = await invite("New.Person@Example.com", "editor", actor(admin, "admin"));
    expect(response.status).toBe(201);
    const invitation = (await response.json()) as CreatedInvitation;
    expect(invitation).toMatchObject({ email: "new.person@example.com", role: "editor", invitedBy: "Adam" });
    expect(invitation.link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(invitation);
    // Only the hash is stored.
    expect(JSON.stringify(await database.prisma.workspaceInvitation.findMany())).not.toContain(token);

    const preview = (await (
      await links.preview(new Request(`http://localhost/api/auth/invitations/${token}`), { token })
    ).json()) as InvitationPreview;
    expect(preview).toMatchObject({
      workspaceName: "Team",
      email: "new.person@example.com",
      role: "editor",
      invitedBy: "Adam",
      accountExists: false,
    });

    const weak = await links.accept(
      new Request(`http://localhost/api/auth/invitations/${token}`, json({ name: "Nia", password: "short" })),
      { token },
    );
    expect(weak.status).toBe(400);
    const accepted = await links.accept(
      new Request(
        `http://localhost/api/auth/invitations/${token}`,
        json({ name: "Nia", password: "a long enough password" }),
      ),
      { token },
    );
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ workspaceId, email: "new.person@example.com" });
    const members = (await (
      await http.members(new Request(url("/members")), { workspaceId }, actor(owner, "owner"))
    ).json()) as WorkspaceMembers;
    expect(members.members.find((member) => member.email === "new.person@example.com")).toMatchObject({
      name: "Nia",
      role: "editor",
    });
    expect(members.invitations.map((open) => open.email)).not.toContain("new.person@example.com");

    // A link works once.
    const again = await links.accept(
      new Request(
        `http://localhost/api/auth/invitations/${token}`,
        json({ name: "Nia", password: "a long enough password" }),
      ),
      {
        token,
      },
    );
    expect(again.status).toBe(404);
  });

  it("answers 409 for an existing member's email and changes nothing", async () => {
    const before = await database.prisma.workspaceInvitation.count();
    const response = await invite(admin.email.toUpperCase(), "viewer");
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toBe(
      `${admin.email} is already a member of this workspace: change their role instead.`,
    );
    expect(await database.prisma.workspaceInvitation.count()).toBe(before);
  });

  it("refuses editors (403) and lets only an owner invite an owner", async () => {
    const editor = await makeUser("Eddie");
    await join(editor.userId, "editor");
    expect((await invite("x@example.com", "viewer", actor(editor, "editor"))).status).toBe(403);
    const byAdmin = await invite("y@example.com", "owner", actor(admin, "admin"));
    expect(byAdmin.status).toBe(403);
    expect((await errorOf(byAdmin)).message).toBe("Only an owner can invite an owner.");
  });

  it("lists open invitations and revokes one, after which its link is dead", async () => {
    const invitation = (await (await invite("later@example.com", "viewer")).json()) as CreatedInvitation;
    const listed = (await (
      await http.members(new Request(url("/members")), { workspaceId }, actor(admin, "admin"))
    ).json()) as WorkspaceMembers;
    expect(listed.invitations.map((open) => open.email)).toContain("later@example.com");
    const revoked = await http.revokeInvitation(
      new Request(url(`/invitations/${invitation.id}`), { method: "DELETE" }),
      { workspaceId, invitationId: invitation.id },
      actor(admin, "admin"),
    );
    expect(revoked.status).toBe(204);
    const token = tokenOf(invitation);
    expect((await links.preview(new Request(`http://localhost/api/auth/invitations/${token}`), { token })).status).toBe(
      404,
    );
  });

  it("refuses an unknown token with one message", async () => {
    const response = await links.preview(new Request("http://localhost/api/auth/invitations/nope"), { token: "nope" });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe(
      "This invitation is no longer valid: it was used, revoked or has expired. Ask for a new one.",
    );
  });
});

describe("roles of members", () => {
  it("lets an admin change an editor's role but not make an owner, and keeps the last owner", async () => {
    const member = await makeUser("Mia");
    await join(member.userId, "editor");
    const params = { workspaceId, userId: member.userId };
    const toViewer = await http.changeRole(
      new Request(url(`/members/${member.userId}`), json({ role: "viewer" }, "PATCH")),
      params,
      actor(admin, "admin"),
    );
    expect(toViewer.status).toBe(200);
    expect(await database.repositories.workspaces.roleOf(workspaceId, member.userId)).toBe("viewer");
    const toOwner = await http.changeRole(
      new Request(url(`/members/${member.userId}`), json({ role: "owner" }, "PATCH")),
      params,
      actor(admin, "admin"),
    );
    expect(toOwner.status).toBe(403);
    const ownerParams = { workspaceId, userId: owner.userId };
    const stepDown = await http.changeRole(
      new Request(url(`/members/${owner.userId}`), json({ role: "admin" }, "PATCH")),
      ownerParams,
      actor(owner, "owner"),
    );
    expect(stepDown.status).toBe(409);
    expect((await errorOf(stepDown)).message).toBe(
      "You cannot change the role of the workspace's last owner: make another member an owner first.",
    );
    const badRole = await http.changeRole(
      new Request(url(`/members/${member.userId}`), json({ role: "god" }, "PATCH")),
      params,
      actor(admin, "admin"),
    );
    expect(badRole.status).toBe(400);
  });

  it("removes a member (their keys stop with them), lets anyone leave, and refuses removing the last owner", async () => {
    const leaver = await makeUser("Lee");
    await join(leaver.userId, "viewer");
    const key = await database.prisma.apiKey.create({
      data: { userId: leaver.userId, workspaceId, name: "k", prefix: "trl_x", hash: randomUUID() },
    });
    const leave = await http.removeMember(
      new Request(url(`/members/${leaver.userId}`), { method: "DELETE" }),
      { workspaceId, userId: leaver.userId },
      actor(leaver, "viewer"),
    );
    expect(leave.status).toBe(204);
    expect(await database.repositories.workspaces.roleOf(workspaceId, leaver.userId)).toBeNull();
    expect((await database.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).not.toBeNull();

    const viewer = await makeUser("Vic");
    await join(viewer.userId, "viewer");
    const byViewer = await http.removeMember(
      new Request(url(`/members/${admin.userId}`), { method: "DELETE" }),
      { workspaceId, userId: admin.userId },
      actor(viewer, "viewer"),
    );
    expect(byViewer.status).toBe(403);
    const lastOwner = await http.removeMember(
      new Request(url(`/members/${owner.userId}`), { method: "DELETE" }),
      { workspaceId, userId: owner.userId },
      actor(owner, "owner"),
    );
    expect(lastOwner.status).toBe(409);
    const ownerByAdmin = await http.removeMember(
      new Request(url(`/members/${owner.userId}`), { method: "DELETE" }),
      { workspaceId, userId: owner.userId },
      actor(admin, "admin"),
    );
    expect(ownerByAdmin.status).toBe(403);
  });
});

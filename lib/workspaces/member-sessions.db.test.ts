import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemberSessions, WorkspaceRole } from "@/contract";
import { auditRequestsTo } from "@/lib/audit";
import { createApiKey } from "@/lib/auth";
import { createAuth, type TrellisAuth } from "@/lib/auth/auth";
import { peerAddressHeader } from "@/lib/auth/peer-address";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { startCallerProcess, type CallerProcess } from "./__fixtures__/start-caller-process";
import { memberSessionEndpoints, type MemberSessionEndpoints } from "./member-session-endpoints";
import { memberSessions } from "./member-sessions";
import { workspaceEndpoints, type WorkspaceEndpoints } from "./workspace-endpoints";

/**
 * A member's sessions and keys end when an admin says so, and another server process (its own
 * Node process, its own database client, nothing shared but the database) refuses them within a
 * second: removing a member, or ending their sessions.
 */

const ORIGIN = "http://127.0.0.1:3000";
const SECRET = randomBytes(32).toString("hex");
let database: TestDatabase;
let auth: TrellisAuth;
let other: CallerProcess;
let members: WorkspaceEndpoints;
let sessions: MemberSessionEndpoints;
let workspaceId: string;
let ownerId: string;
let counter = 0;

async function signIn(email: string, password: string, address: string): Promise<string> {
  const response = await auth.handler(
    new Request(`${ORIGIN}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        "user-agent": "Session test browser",
        [peerAddressHeader()]: address,
      },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** A new member of the workspace with `role`, signed in once, with an API key. */
async function newMember(role: WorkspaceRole) {
  const email = `member-${++counter}@example.com`;
  const password = "a long enough password";
  const user = await auth.createUser({ name: `Member ${counter}`, email, password });
  await database.prisma.workspaceMember.create({ data: { workspaceId, userId: user.userId, role } });
  const cookie = await signIn(email, password, `198.51.100.${counter}`);
  const { key } = await createApiKey(database.prisma, { userId: user.userId, workspaceId }, { name: "laptop" });
  return { ...user, email, password, cookie, key };
}

const asCookie = (cookie: string) => ({ cookie, "x-trellis-workspace": workspaceId });
const asKey = (key: string) => ({ authorization: `Bearer ${key}` });

/** How long until the other process refuses every one of `credentials` (polling every 25 ms, at most 5 s). */
async function refusedAfter(credentials: Array<Record<string, string>>, from: number): Promise<number> {
  for (;;) {
    const answers = await Promise.all(credentials.map((headers) => other.ask(headers)));
    if (answers.every((answer) => answer.status === 401 || answer.status === 404)) return Date.now() - from;
    if (Date.now() - from > 5_000) throw new Error(`still accepted after 5 s: ${JSON.stringify(answers)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const owner = () => testMember(workspaceId, "owner", { userId: ownerId, name: "Owner" });
const request = (method: string, path: string) =>
  new Request(`${ORIGIN}${path}`, { method, headers: { [peerAddressHeader()]: "203.0.113.9" } });

beforeAll(async () => {
  database = await createTestDatabase({ serve: true });
  auth = createAuth({ prisma: database.prisma, secret: SECRET });
  ownerId = (await auth.createUser({ name: "Owner", email: "owner@example.com", password: "the owner's password" }))
    .userId;
  ({ workspaceId } = await database.prisma.workspaceMember.findFirstOrThrow({ where: { userId: ownerId } }));
  const audit = auditRequestsTo(() => database.prisma);
  members = workspaceEndpoints(() => ({ workspaces: database.repositories.workspaces }), audit);
  sessions = memberSessionEndpoints(() => memberSessions(database.prisma), audit);
  other = await startCallerProcess(database.url!, SECRET);
}, 60_000);
afterAll(async () => {
  await other?.stop();
  await database?.close();
});

describe("removing a member", () => {
  it("ends their sessions and API keys on another process within a second", async () => {
    const bo = await newMember("editor");
    expect(await other.ask(asCookie(bo.cookie))).toMatchObject({ status: 200, body: { userId: bo.userId } });
    expect(await other.ask(asKey(bo.key))).toMatchObject({ status: 200, body: { userId: bo.userId } });

    const removed = await members.removeMember(
      request("DELETE", `/api/workspaces/${workspaceId}/members/${bo.userId}`),
      { workspaceId, userId: bo.userId },
      owner(),
    );
    expect(removed.status).toBe(204);
    // From the moment the removal is answered (committed), as the admin sees it.
    const removedAt = Date.now();
    const elapsed = await refusedAfter([asCookie(bo.cookie), asKey(bo.key)], removedAt);
    expect(elapsed).toBeLessThan(1_000);
    // Signed out, not merely shut out of the workspace: the cookie names no session any more.
    expect((await other.ask({ cookie: bo.cookie })).status).toBe(401);
    const entry = await database.prisma.auditEntry.findFirstOrThrow({
      where: { workspaceId, action: "member.remove", objectId: bo.userId },
    });
    expect(entry.summary).toMatchObject({ after: { apiKeysRevoked: 1, sessionsEnded: 1 } });
  });
});

describe("a member's sessions", () => {
  it("are listed for admins with where and when, never the token", async () => {
    const cy = await newMember("viewer");
    await signIn(cy.email, cy.password, "192.0.2.44");
    const response = await sessions.list(
      request("GET", `/api/workspaces/${workspaceId}/members/${cy.userId}/sessions`),
      { workspaceId, userId: cy.userId },
      testMember(workspaceId, "admin"),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    const listed = JSON.parse(text) as MemberSessions;
    expect(listed.sessions.map((session) => session.address).sort()).toEqual(["192.0.2.44", `198.51.100.${counter}`]);
    expect(listed.sessions[0]).toMatchObject({ userAgent: "Session test browser" });
    const tokens = await database.prisma.session.findMany({ where: { userId: cy.userId }, select: { token: true } });
    for (const { token } of tokens) expect(text).not.toContain(token);
  });

  it("end one at a time or all at once, on another process within a second, each recorded once", async () => {
    const di = await newMember("editor");
    const second = await signIn(di.email, di.password, "192.0.2.55");
    const [first] = await database.prisma.session.findMany({
      where: { userId: di.userId, ipAddress: `198.51.100.${counter}` },
    });
    const params = { workspaceId, userId: di.userId };
    const path = `/api/workspaces/${workspaceId}/members/${di.userId}/sessions`;

    const one = await sessions.revokeOne(
      request("DELETE", `${path}/${first!.id}`),
      { ...params, sessionId: first!.id },
      owner(),
    );
    expect(one.status).toBe(204);
    const endedAt = Date.now();
    expect(await refusedAfter([asCookie(di.cookie)], endedAt)).toBeLessThan(1_000);
    expect((await other.ask(asCookie(second))).status).toBe(200);
    expect((await other.ask(asKey(di.key))).status).toBe(200);

    const all = await sessions.revokeAll(request("DELETE", path), params, owner());
    expect(await all.json()).toEqual({ revoked: 1 });
    expect((await other.ask(asCookie(second))).status).toBe(401);
    const entries = await database.prisma.auditEntry.findMany({
      where: { workspaceId, action: "session.revoke", objectId: di.userId },
      orderBy: { at: "asc" },
    });
    expect(entries.map((entry) => entry.summary)).toEqual([
      { after: { sessionsEnded: 1, sessionId: first!.id } },
      { after: { sessionsEnded: 1, all: true } },
    ]);
    expect(entries.every((entry) => entry.actorId === ownerId && entry.address === "203.0.113.9")).toBe(true);
  });

  it("of an owner are an owner's to end; an unknown session or someone outside the workspace is 404", async () => {
    const path = `/api/workspaces/${workspaceId}/members/${ownerId}/sessions`;
    const byAdmin = await sessions.revokeAll(
      request("DELETE", path),
      { workspaceId, userId: ownerId },
      testMember(workspaceId, "admin"),
    );
    expect(byAdmin.status).toBe(403);
    const unknown = await sessions.revokeOne(
      request("DELETE", `${path}/nope`),
      { workspaceId, userId: ownerId, sessionId: "nope" },
      owner(),
    );
    expect(unknown.status).toBe(404);
    const stranger = await sessions.list(
      request("GET", "/"),
      { workspaceId, userId: "someone-else" },
      testMember(workspaceId, "admin"),
    );
    expect(stranger.status).toBe(404);
    const byEditor = await sessions.list(
      request("GET", "/"),
      { workspaceId, userId: ownerId },
      testMember(workspaceId, "editor"),
    );
    expect(byEditor.status).toBe(403);
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_COOKIE, WORKSPACE_HEADER } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createApiKey } from "./api-keys";
import { callerOf, type Caller } from "./authenticate";
import { requestedWorkspace, workspaceAccess } from "./workspace-access";

/** Where a session or an API key acts, and with which role. */

let database: TestDatabase;
let first: string;
let second: string;
let foreign: string;
let user: Caller;

const request = (headers: Record<string, string> = {}) => new Request("http://localhost/api/workflows", { headers });
const access = (caller: Caller, headers: Record<string, string> = {}, params: unknown = {}) =>
  workspaceAccess(database.repositories.workspaces, caller, requestedWorkspace(request(headers), params));

beforeAll(async () => {
  database = await createTestDatabase();
  const userId = randomUUID();
  await database.prisma.user.create({ data: { id: userId, name: "Uma", email: `uma-${userId}@example.com` } });
  user = { userId, email: "uma@example.com", name: "Uma", via: "session" };
  first = (await database.repositories.workspaces.create(userId, "First")).id;
  second = await database.createWorkspace("Second");
  await database.prisma.workspaceMember.create({ data: { workspaceId: second, userId, role: "viewer" } });
  foreign = await database.createWorkspace("Foreign");
});
afterAll(() => database.close());

describe("a session", () => {
  it("acts in its first workspace by default, and in the one the header, the switcher's cookie or the path names", async () => {
    expect(await access(user)).toEqual({ id: first, role: "owner" });
    expect(await access(user, { [WORKSPACE_HEADER]: second })).toEqual({ id: second, role: "viewer" });
    expect(await access(user, { cookie: `other=1; ${WORKSPACE_COOKIE}=${second}` })).toEqual({
      id: second,
      role: "viewer",
    });
    expect(await access(user, { [WORKSPACE_HEADER]: first }, { workspaceId: second })).toEqual({
      id: second,
      role: "viewer",
    });
  });

  it("gets 404 for a workspace it does not belong to, named by the header or the path; a stale cookie falls back to the first", async () => {
    await expect(access(user, { [WORKSPACE_HEADER]: foreign })).rejects.toMatchObject({
      code: "not_found",
      message: `Workspace "${foreign}" was not found`,
    });
    await expect(access(user, {}, { workspaceId: foreign })).rejects.toMatchObject({ code: "not_found" });
    expect(await access(user, { cookie: `${WORKSPACE_COOKIE}=${foreign}` })).toEqual({ id: first, role: "owner" });
  });

  it("is refused (403) when the user belongs to no workspace", async () => {
    const lonelyId = randomUUID();
    await database.prisma.user.create({ data: { id: lonelyId, name: "Lou", email: `lou-${lonelyId}@example.com` } });
    await expect(
      access({ userId: lonelyId, email: "lou@example.com", name: "Lou", via: "session" }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("an API key", () => {
  it("acts in its own workspace with its creator's current role, ignores the cookie, and gets 404 naming another", async () => {
    const key: Caller = { ...user, via: "api-key", apiKeyId: "k", keyWorkspaceId: second };
    expect(await access(key, { cookie: `${WORKSPACE_COOKIE}=${first}` })).toEqual({ id: second, role: "viewer" });
    await expect(access(key, { [WORKSPACE_HEADER]: first })).rejects.toMatchObject({ code: "not_found" });
  });

  it("stops working (401) once its creator has left the workspace", async () => {
    const key: Caller = { ...user, via: "api-key", apiKeyId: "k", keyWorkspaceId: foreign };
    await expect(access(key)).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("an API key checked with its request", () => {
  it("carries its creator's role read with the key, and stops working once they leave", async () => {
    const userId = randomUUID();
    await database.prisma.user.create({ data: { id: userId, name: "Kit", email: `kit-${userId}@example.com` } });
    const workspaceId = await database.createWorkspace("Keyed");
    await database.prisma.workspaceMember.create({ data: { workspaceId, userId, role: "editor" } });
    const made = await createApiKey(database.prisma, { workspaceId, userId }, { name: "ci" });
    const withKey = new Request("http://localhost/api/workflows", { headers: { authorization: `Bearer ${made.key}` } });
    const caller = await callerOf(withKey, { prisma: database.prisma });
    expect(caller).toMatchObject({ via: "api-key", keyWorkspaceId: workspaceId, keyRole: "editor" });
    expect(await workspaceAccess(database.repositories.workspaces, caller!, requestedWorkspace(withKey, {}))).toEqual({
      id: workspaceId,
      role: "editor",
    });

    await database.prisma.workspaceMember.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
    const afterLeaving = await callerOf(withKey, { prisma: database.prisma });
    expect(afterLeaving).toMatchObject({ keyRole: null });
    await expect(
      workspaceAccess(database.repositories.workspaces, afterLeaving!, requestedWorkspace(withKey, {})),
    ).rejects.toMatchObject({
      code: "unauthenticated",
    });
  });
});

import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiClient, type ApiKeySummary, type CreatedApiKey, type WorkspaceRole } from "@/contract";
import { callerOfApiKey, createApiKey, INVALID_API_KEY_MESSAGE } from "@/lib/auth";
import { getPrisma } from "@/lib/db";
import { answerApiRequest } from "@/lib/api";

/**
 * API keys end to end through the real route modules (route() authenticates, the endpoint acts for
 * the caller), over the test run's database.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** The app's API as the catch-all route serves it: every operation through its declaration. */
const served: Handler = (request) => answerApiRequest(request);
const apiKeyRoute = { GET: served, POST: served };
const apiKeyIdRoute = { DELETE: served };
const workflowsRoute = { GET: served, POST: served };

const prisma = getPrisma();
let alice: string;
let bob: string;
/** Alice's workspace (she owns it; Bob is an editor there) and Bob's own. */
let aliceWorkspace: string;
let bobWorkspace: string;
/** Alice's key made directly, to authenticate the requests that make more. */
let aliceKey: string;

async function makeUser(name: string): Promise<string> {
  const id = randomUUID();
  await prisma.user.create({ data: { id, name, email: `${name.toLowerCase()}-${id}@example.com` } });
  return id;
}

/** A workspace with these members. */
async function makeWorkspace(name: string, members: Array<[userId: string, role: WorkspaceRole]>): Promise<string> {
  const workspace = await prisma.workspace.create({
    data: { name, members: { create: members.map(([userId, role]) => ({ userId, role })) } },
  });
  return workspace.id;
}

/** A key for the user in the workspace, made directly. */
const makeKey = (userId: string, workspaceId: string, request: { name: string; expiresAt?: Date | null }) =>
  createApiKey(prisma, { userId, workspaceId }, request);

function call(
  handler: Handler,
  options: {
    method?: string;
    path?: string;
    key?: string;
    authorization?: string;
    body?: unknown;
    params?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = {};
  const authorization = options.authorization ?? (options.key ? `Bearer ${options.key}` : undefined);
  if (authorization) headers.authorization = authorization;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${options.path ?? "/api/api-keys"}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

const listWorkflows = (options: { key?: string; authorization?: string }) =>
  call(workflowsRoute.GET as Handler, { path: "/api/workflows", ...options });
const create = (key: string, body: unknown) => call(apiKeyRoute.POST as Handler, { key, body });
const list = async (key: string) =>
  ((await (await call(apiKeyRoute.GET as Handler, { key })).json()) as { apiKeys: ApiKeySummary[] }).apiKeys;
const revoke = (key: string, id: string) =>
  call(apiKeyIdRoute.DELETE as Handler, { method: "DELETE", path: `/api/api-keys/${id}`, key, params: { id } });

async function expectInvalidKey(response: Response) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({
    error: { code: "unauthenticated", message: INVALID_API_KEY_MESSAGE, details: [] },
  });
}

beforeAll(async () => {
  alice = await makeUser("Alice");
  bob = await makeUser("Bob");
  aliceWorkspace = await makeWorkspace("Alice's", [
    [alice, "owner"],
    [bob, "editor"],
  ]);
  bobWorkspace = await makeWorkspace("Bob's", [[bob, "owner"]]);
  aliceKey = (await makeKey(alice, aliceWorkspace, { name: "bootstrap" })).key;
});

describe("POST /api/api-keys", () => {
  it("answers 201 with the key once, and stores only its SHA-256 hash", async () => {
    const response = await create(aliceKey, { name: "  CI deploy  " });
    expect(response.status).toBe(201);
    const created = (await response.json()) as CreatedApiKey;
    expect(created).toEqual({
      id: expect.any(String),
      name: "CI deploy",
      prefix: created.key.slice(0, 12),
      key: expect.any(String),
      createdAt: expect.any(String),
      expiresAt: null,
    });
    expect(created.key).toMatch(/^trl_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toMatch(/^trl_[A-Za-z0-9_-]{8}$/);

    const rows = await prisma.$queryRaw<
      Array<Record<string, unknown>>
    >`SELECT * FROM "api_keys" WHERE "id" = ${created.id}`;
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.hash).toBe(createHash("sha256").update(created.key).digest("hex"));
    expect(row.user_id).toBe(alice);
    expect(row.workspace_id).toBe(aliceWorkspace);
    expect(row.prefix).toBe(created.prefix);
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(12));

    // The new key works, and it acts as Alice.
    expect((await listWorkflows({ key: created.key })).status).toBe(200);
    expect((await list(created.key)).map((key) => key.id)).toContain(created.id);
  });

  it("keeps an expiry in the future, and refuses a bad name, a past expiry or an unknown field with 400", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const response = await create(aliceKey, { name: "Nightly", expiresAt });
    expect(response.status).toBe(201);
    expect(((await response.json()) as CreatedApiKey).expiresAt).toBe(expiresAt);

    const before = await prisma.apiKey.count();
    for (const body of [
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      {},
      { name: "Old", expiresAt: new Date(Date.now() - 1000).toISOString() },
      { name: "Odd", expiresAt: "tomorrow" },
      { name: "Extra", scope: "all" },
    ]) {
      const refused = await create(aliceKey, body);
      expect([JSON.stringify(body), refused.status]).toEqual([JSON.stringify(body), 400]);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    expect(await prisma.apiKey.count()).toBe(before);
    expect((await create(aliceKey, { name: "x".repeat(100) })).status).toBe(201);
  });
});

describe("GET /api/api-keys", () => {
  it("lists the caller's own keys, never a key or a hash", async () => {
    const bobKey = await makeKey(bob, aliceWorkspace, { name: "Bob's laptop" });
    const listed = await list(aliceKey);
    expect(listed.length).toBeGreaterThan(0);
    for (const entry of listed)
      expect(Object.keys(entry).sort()).toEqual(["createdAt", "expiresAt", "id", "lastUsedAt", "name", "prefix"]);
    expect(listed.map((entry) => entry.id)).not.toContain(bobKey.id);

    const hashes = (await prisma.apiKey.findMany({ where: { userId: alice }, select: { hash: true } })).map(
      (row) => row.hash,
    );
    const text = JSON.stringify(listed);
    expect(text).not.toContain(aliceKey);
    for (const hash of hashes) expect(text).not.toContain(hash);
    expect((await list(bobKey.key)).map((entry) => entry.name)).toEqual(["Bob's laptop"]);
  });
});

describe("Authorization: Bearer on an app route (GET /api/workflows)", () => {
  it("authenticates a valid key, and refuses it with 401 right after DELETE", async () => {
    const made = await makeKey(alice, aliceWorkspace, { name: "short-lived" });
    expect((await listWorkflows({ key: made.key })).status).toBe(200);

    const revoked = await revoke(aliceKey, made.id);
    expect(revoked.status).toBe(204);
    expect(await revoked.text()).toBe("");
    await expectInvalidKey(await listWorkflows({ key: made.key }));
    expect((await list(aliceKey)).map((entry) => entry.id)).not.toContain(made.id);
    // Revoked once: a second DELETE finds nothing.
    expect((await revoke(aliceKey, made.id)).status).toBe(404);
  });

  it("lets a key revoke itself", async () => {
    const made = await makeKey(alice, aliceWorkspace, { name: "self" });
    expect((await revoke(made.key, made.id)).status).toBe(204);
    await expectInvalidKey(await listWorkflows({ key: made.key }));
  });

  it("answers an expired, unknown or malformed key with 401 and one message", async () => {
    const expired = await makeKey(alice, aliceWorkspace, { name: "expired", expiresAt: new Date(Date.now() - 1000) });
    const unknown = `trl_${"A".repeat(43)}`;
    for (const authorization of [
      `Bearer ${expired.key}`,
      `Bearer ${unknown}`,
      "Bearer trl_short",
      `Bearer ${aliceKey.slice(0, -1)}`,
      `Bearer ${aliceKey}x`,
      `Bearer ${aliceKey.replace("trl_", "sk_")}`,
      "Bearer ",
      `Basic ${Buffer.from("alice:password").toString("base64")}`,
    ]) {
      await expectInvalidKey(await listWorkflows({ authorization }));
    }
    // A bad key is refused even next to a cookie: the Authorization header alone decides.
    const withCookie = await workflowsRoute.GET(
      new Request("http://localhost/api/workflows", {
        headers: { authorization: `Bearer ${unknown}`, cookie: "trellis.session_token=whatever" },
      }),
      { params: Promise.resolve({}) },
    );
    await expectInvalidKey(withCookie);
  });

  it("answers 401 without credentials, on the API key routes too", async () => {
    const id = (await makeKey(alice, aliceWorkspace, { name: "untouched" })).id;
    for (const response of [
      await listWorkflows({}),
      await call(apiKeyRoute.GET as Handler),
      await call(apiKeyRoute.POST as Handler, { body: { name: "sneaky" } }),
      await call(apiKeyIdRoute.DELETE as Handler, { method: "DELETE", path: `/api/api-keys/${id}`, params: { id } }),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: "unauthenticated" } });
    }
    expect(await prisma.apiKey.count({ where: { name: "sneaky" } })).toBe(0);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
  });

  it("stops working when its user is deleted", async () => {
    const carol = await makeUser("Carol");
    const made = await makeKey(carol, await makeWorkspace("Carol's", [[carol, "owner"]]), { name: "carol" });
    expect((await listWorkflows({ key: made.key })).status).toBe(200);
    await prisma.user.delete({ where: { id: carol } });
    expect(await prisma.apiKey.count({ where: { id: made.id } })).toBe(0);
    await expectInvalidKey(await listWorkflows({ key: made.key }));
  });
});

describe("DELETE /api/api-keys/:id", () => {
  it("answers 404 for another user's key and for an unknown id, and leaves the key working", async () => {
    const bobKey = await makeKey(bob, aliceWorkspace, { name: "Bob's CI" });
    const foreign = await revoke(aliceKey, bobKey.id);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await revoke(aliceKey, randomUUID())).status).toBe(404);
    expect((await revoke(aliceKey, "not-an-id")).status).toBe(404);
    expect((await listWorkflows({ key: bobKey.key })).status).toBe(200);
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: bobKey.id } })).revokedAt).toBeNull();
  });
});

describe("keys per workspace", () => {
  it("lists only the keys of the workspace the caller acts in", async () => {
    const inBob = await makeKey(bob, bobWorkspace, { name: "Bob in his own workspace" });
    const inAlice = await makeKey(bob, aliceWorkspace, { name: "Bob in Alice's workspace" });
    const fromBobs = (await list(inBob.key)).map((entry) => entry.id);
    const fromAlices = (await list(inAlice.key)).map((entry) => entry.id);
    expect(fromBobs).toContain(inBob.id);
    expect(fromBobs).not.toContain(inAlice.id);
    expect(fromAlices).toContain(inAlice.id);
    expect(fromAlices).not.toContain(inBob.id);

    // A key made through the API belongs to the workspace of the key that made it.
    const made = (await (await create(inBob.key, { name: "made in Bob's" })).json()) as CreatedApiKey;
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: made.id } })).workspaceId).toBe(bobWorkspace);
    expect((await list(inAlice.key)).map((entry) => entry.id)).not.toContain(made.id);
  });

  it("answers 404 when revoking, from workspace B, the caller's own key of workspace A, and leaves it working", async () => {
    const inAlice = await makeKey(bob, aliceWorkspace, { name: "Bob's key for Alice's" });
    const inBob = await makeKey(bob, bobWorkspace, { name: "Bob's key for his own" });
    const foreign = await revoke(inBob.key, inAlice.id);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: inAlice.id } })).revokedAt).toBeNull();
    expect((await listWorkflows({ key: inAlice.key })).status).toBe(200);
    // From its own workspace it goes.
    expect((await revoke(inAlice.key, inAlice.id)).status).toBe(204);
  });

  it("lets a viewer create, list and revoke keys (a key only acts with its creator's role)", async () => {
    const dave = await makeUser("Dave");
    await prisma.workspaceMember.create({ data: { workspaceId: aliceWorkspace, userId: dave, role: "viewer" } });
    const daveKey = await makeKey(dave, aliceWorkspace, { name: "Dave's bootstrap" });

    const response = await create(daveKey.key, { name: "Dave's script" });
    expect(response.status).toBe(201);
    const created = (await response.json()) as CreatedApiKey;
    expect((await list(daveKey.key)).map((entry) => entry.id)).toContain(created.id);
    expect((await listWorkflows({ key: created.key })).status).toBe(200);
    // It reads, but changes nothing.
    const refused = await call(workflowsRoute.POST as Handler, {
      path: "/api/workflows",
      key: created.key,
      body: { name: "Not by a viewer" },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("(viewer)");
    expect((await revoke(daveKey.key, created.id)).status).toBe(204);
  });
});

describe("lastUsedAt", () => {
  it("is set on use, and written at most once a minute", async () => {
    const made = await makeKey(alice, aliceWorkspace, { name: "usage" });
    const lastUsed = async () => (await prisma.apiKey.findUniqueOrThrow({ where: { id: made.id } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();

    const before = Date.now();
    expect((await listWorkflows({ key: made.key })).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect((await list(aliceKey)).find((entry) => entry.id === made.id)?.lastUsedAt).toBe(first!.toISOString());

    expect((await listWorkflows({ key: made.key })).status).toBe(200);
    expect(await lastUsed()).toEqual(first);

    const later = new Date(first!.getTime() + 61_000);
    expect(await callerOfApiKey(prisma, made.key, later)).toMatchObject({
      userId: alice,
      apiKeyId: made.id,
      workspaceId: aliceWorkspace,
    });
    expect(await lastUsed()).toEqual(later);
  });
});

describe("the API client's apiKeys methods", () => {
  it("create, list and revoke through the routes", async () => {
    const routes: Array<[RegExp, string, Handler]> = [
      [/^\/api\/api-keys$/, "GET", apiKeyRoute.GET as Handler],
      [/^\/api\/api-keys$/, "POST", apiKeyRoute.POST as Handler],
      [/^\/api\/api-keys\/[^/]+$/, "DELETE", apiKeyIdRoute.DELETE as Handler],
    ];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      const [, , handler] = routes.find(([pattern, method]) => pattern.test(path) && method === request.method)!;
      return handler(request, { params: Promise.resolve({ id: decodeURIComponent(path.split("/")[3] ?? "") }) });
    };
    const client = createApiClient({
      baseUrl: "http://localhost",
      fetch,
      headers: { authorization: `Bearer ${aliceKey}` },
    });
    const created = await client.apiKeys.create({ name: "from the client" });
    expect(created.key).toMatch(/^trl_/);
    expect((await client.apiKeys.list()).find((entry) => entry.id === created.id)).toMatchObject({
      name: "from the client",
      prefix: created.prefix,
    });
    await client.apiKeys.revoke(created.id);
    await expect(client.apiKeys.revoke(created.id)).rejects.toMatchObject({ status: 404, code: "not_found" });
  });
});

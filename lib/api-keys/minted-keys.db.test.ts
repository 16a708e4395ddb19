import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "@/contract";
import { createApiKey } from "@/lib/auth";
import { getPrisma } from "@/lib/db";
import { answerApiRequest } from "@/lib/api";

/**
 * A key made with a key ends with it: revoking a key revokes every key it minted, at any depth,
 * even when the minting and the revoking run at the same moment. Through the real route modules.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** The app's API as the catch-all route serves it: every operation through its declaration. */
const served: Handler = (request) => answerApiRequest(request);
const apiKeyRoute = { GET: served, POST: served };
const apiKeyIdRoute = { DELETE: served };
const workflowsRoute = { GET: served, POST: served };

const prisma = getPrisma();
let user: string;
let workspaceId: string;

function call(
  handler: Handler,
  key: string,
  options: { method?: string; path?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${options.path ?? "/api/api-keys"}`, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

const works = async (key: string) =>
  (await call(workflowsRoute.GET as Handler, key, { path: "/api/workflows" })).status === 200;
const mint = (key: string, body: Record<string, unknown> = { name: "minted" }) =>
  call(apiKeyRoute.POST as Handler, key, { body });
async function minted(key: string, body?: Record<string, unknown>): Promise<CreatedApiKey> {
  const response = await mint(key, body);
  expect(response.status).toBe(201);
  return (await response.json()) as CreatedApiKey;
}
const revoke = (key: string, id: string) =>
  call(apiKeyIdRoute.DELETE as Handler, key, { method: "DELETE", path: `/api/api-keys/${id}`, params: { id } });
/** A key made in a signed-in session (no minting key). */
const sessionKey = (name: string, expiresAt: Date | null = null) =>
  createApiKey(prisma, { userId: user, workspaceId }, { name, expiresAt });

beforeAll(async () => {
  user = randomUUID();
  await prisma.user.create({ data: { id: user, name: "Mia", email: `mia-${user.slice(0, 8)}@example.com` } });
  workspaceId = (
    await prisma.workspace.create({ data: { name: "Mia's", members: { create: { userId: user, role: "owner" } } } })
  ).id;
});

describe("keys minted by keys", () => {
  it("revoking a key ends the keys it minted and theirs, and leaves its own maker and other keys working", async () => {
    const root = await sessionKey("root");
    const other = await sessionKey("other");
    const child = await minted(root.key);
    const grandchild = await minted(child.key);
    const sibling = await minted(root.key);
    expect(await works(grandchild.key)).toBe(true);

    expect((await revoke(root.key, child.id)).status).toBe(204);
    expect(await works(child.key)).toBe(false);
    expect(await works(grandchild.key)).toBe(false);
    expect(await works(sibling.key)).toBe(true);
    expect(await works(root.key)).toBe(true);

    expect((await revoke(other.key, root.id)).status).toBe(204);
    expect(await works(root.key)).toBe(false);
    expect(await works(sibling.key)).toBe(false);
    expect(await works(other.key)).toBe(true);
  });

  it("a minted key expires no later than its maker: it takes the maker's expiry, and a later one is refused naming expiresAt", async () => {
    const expiry = new Date(Date.now() + 86_400_000);
    const root = await sessionKey("expiring", expiry);
    expect((await minted(root.key)).expiresAt).toBe(expiry.toISOString());
    const sooner = new Date(Date.now() + 3_600_000).toISOString();
    expect((await minted(root.key, { name: "sooner", expiresAt: sooner })).expiresAt).toBe(sooner);

    const later = await mint(root.key, { name: "later", expiresAt: new Date(expiry.getTime() + 1000).toISOString() });
    expect(later.status).toBe(400);
    const { error } = (await later.json()) as { error: { code: string; message: string; details: { path: string }[] } };
    expect(error.code).toBe("invalid_request");
    expect(error.message).toContain(`not be later than the key that makes it (${expiry.toISOString()})`);
    expect(error.details.map((detail) => detail.path)).toEqual(["expiresAt"]);
  });

  it("minting and revoking at the same moment leave no minted key working", async () => {
    for (let round = 0; round < 5; round++) {
      const root = await sessionKey(`racing ${round}`);
      const child = await minted(root.key);
      // Mints through the root and through its child, with the root's revocation in the middle of them.
      const mints = Array.from({ length: 12 }, (_, index) =>
        mint(index % 2 ? root.key : child.key, { name: `raced ${index}` }),
      );
      const [revoked, ...answers] = await Promise.all([revoke(child.key, root.id), ...mints]);
      expect(revoked.status).toBe(204);
      const made = await Promise.all(
        answers
          .filter((answer) => answer.status === 201)
          .map(async (answer) => ((await answer.json()) as CreatedApiKey).key),
      );
      for (const answer of answers) expect([201, 401]).toContain(answer.status);
      for (const key of [root.key, child.key, ...made]) expect(await works(key)).toBe(false);
    }
  });
});

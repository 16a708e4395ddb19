import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeySummary } from "@/contract";
import { createApiKey, type Member } from "@/lib/auth";
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
import { apiKeyEndpoints, type ApiKeyEndpoints } from "./api-key-endpoints";
import { auditRequestsTo } from "@/lib/audit";

let database: TestDatabase;
let endpoints: ApiKeyEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  endpoints = apiKeyEndpoints(
    () => database.prisma,
    auditRequestsTo(() => database.prisma),
  );
});
afterAll(() => database?.close());

/** A user with `count` keys in a workspace of their own, one revoked besides (never listed). */
async function userWithKeys(count: number): Promise<{ member: Member; keyIds: string[] }> {
  const userId = randomUUID();
  await database.prisma.user.create({ data: { id: userId, name: "Keyholder", email: `${userId}@example.com` } });
  const workspaceId = await database.createWorkspace();
  const owner = { userId, workspaceId };
  const keyIds: string[] = [];
  for (let index = 0; index < count; index++)
    keyIds.push((await createApiKey(database.prisma, owner, { name: `key ${index}` })).id);
  const revoked = await createApiKey(database.prisma, owner, { name: "revoked" });
  await database.prisma.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  return { member: testMember(workspaceId, "viewer", { userId }), keyIds };
}

const listOf = (as: Member) => (query: string) =>
  endpoints.list(new Request(`http://localhost/api/api-keys${query}`), {}, as);

describe("GET /api/api-keys, page by page", () => {
  it("walks every live key exactly once, newest first", async () => {
    const { member, keyIds } = await userWithKeys(8);
    const { items, pages } = await walkPages<ApiKeySummary>(listOf(member), "apiKeys", 3);
    expect(pages).toBe(3);
    expect(items.map((key) => key.id).sort()).toEqual([...keyIds].sort());
    expectTimeAndIdOrder(
      items,
      (key) => key.createdAt,
      (key) => key.id,
      "desc",
    );
    expect(JSON.stringify(items)).not.toMatch(/trl_[A-Za-z0-9_-]{43}/);
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    await expectPagingRefusals(listOf((await userWithKeys(1)).member));
  });

  it("lists only the caller's own keys whatever cursor it carries", async () => {
    const theirs = await userWithKeys(2);
    await nextMillisecond();
    const ours = await userWithKeys(2);
    const cursor = await firstCursor(listOf(ours.member), 1);
    const page = await readPage(listOf(theirs.member), { cursor });
    expect((page.apiKeys as ApiKeySummary[]).map((key) => key.id).sort()).toEqual([...theirs.keyIds].sort());
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, MAX_SECRET_VALUE_BYTES } from "@/contract";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { expectPagingRefusals, firstCursor, readPage, walkPages } from "@/lib/http/__fixtures__/paging-checks";
import { testMember } from "@/lib/http/test-members";
import { secretEndpoints, type SecretEndpoints } from "./secret-endpoints";
import { auditRequestsTo } from "@/lib/audit";

let database: TestDatabase;
let endpoints: SecretEndpoints;
let ws: string;
let editor: Member;
beforeAll(async () => {
  database = await createTestDatabase();
  ws = await database.createWorkspace();
  editor = testMember(ws, "editor");
  endpoints = secretEndpoints(
    () => database.repositories.secrets,
    auditRequestsTo(() => database.prisma),
  );
});
afterAll(() => database?.close());

const VALUE = "sk-live-endpoint-test-0123456789";

function put(name: string, body: unknown, as: Member = editor) {
  return endpoints.put(
    new Request(`http://localhost/api/secrets/${encodeURIComponent(name)}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { name },
    as,
  );
}
const remove = (name: string, as: Member = editor) =>
  endpoints.remove(new Request(`http://localhost/api/secrets/${name}`, { method: "DELETE" }), { name }, as);
const listResponse = (as: Member = editor) => endpoints.list(new Request("http://localhost/api/secrets"), {}, as);
const list = async (as: Member = editor) =>
  (await (await listResponse(as)).json()) as { secrets: Array<Record<string, unknown>> };

describe("secret endpoints", () => {
  it("creates with PUT (204), lists names and dates only, replaces on a second PUT and deletes (204)", async () => {
    const created = await put("SUPPORT_TOKEN", { value: VALUE });
    expect(created.status).toBe(204);
    expect(await created.text()).toBe("");

    const first = await list();
    expect(first.secrets).toEqual([{ name: "SUPPORT_TOKEN", updatedAt: expect.any(String) }]);
    expect(JSON.stringify(first)).not.toContain(VALUE);

    expect((await put("SUPPORT_TOKEN", { value: `${VALUE}-2` })).status).toBe(204);
    expect(await database.repositories.secrets.get(ws, "SUPPORT_TOKEN")).toBe(`${VALUE}-2`);
    expect((await list()).secrets).toHaveLength(1);

    expect((await remove("SUPPORT_TOKEN")).status).toBe(204);
    expect((await list()).secrets).toEqual([]);
  });

  it("answers 404 when deleting a name that is not stored", async () => {
    const response = await remove("NEVER_STORED");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it.each(["lower_case", "9STARTS_WITH_DIGIT", "HAS-DASH", "HAS SPACE", "", "A".repeat(129)])(
    "refuses the name %j with 400 naming the rule, storing nothing",
    async (name) => {
      const response = await put(name, { value: VALUE });
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        error: { code: string; message: string; details: Array<{ path: string }> };
      };
      expect(body.error.message).toContain("[A-Z_][A-Z0-9_]*");
      expect(body.error.details[0]?.path).toBe("name");
      expect((await remove(name)).status).toBe(400);
      expect((await list()).secrets).toEqual([]);
    },
  );

  it.each([
    ["an empty value", { value: "" }, "value: must not be empty"],
    ["a missing value", {}, "value"],
    ["a value that is not a string", { value: 42 }, "value: must be a string"],
    ["an unknown field", { value: VALUE, note: "x" }, "note"],
    ["a value over 64 KB", { value: "x".repeat(MAX_SECRET_VALUE_BYTES + 1) }, "value: must be at most 64 KB"],
    [
      "a value over 64 KB in UTF-8 bytes",
      { value: "é".repeat(MAX_SECRET_VALUE_BYTES / 2 + 1) },
      "value: must be at most 64 KB",
    ],
  ])("refuses %s with 400, storing nothing", async (_what, body, message) => {
    const response = await put("REFUSED_VALUE", body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    expect(await database.repositories.secrets.get(ws, "REFUSED_VALUE")).toBeNull();
  });

  it("accepts a value of exactly 64 KB", async () => {
    expect((await put("BIG_VALUE", { value: "x".repeat(MAX_SECRET_VALUE_BYTES) })).status).toBe(204);
    expect((await database.repositories.secrets.get(ws, "BIG_VALUE"))?.length).toBe(MAX_SECRET_VALUE_BYTES);
    expect((await remove("BIG_VALUE")).status).toBe(204);
  });

  it("is what the API client's secrets methods call", async () => {
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const name = decodeURIComponent(new URL(request.url).pathname.split("/")[3] ?? "");
      if (request.method === "GET") return endpoints.list(request, {}, editor);
      return request.method === "PUT"
        ? endpoints.put(request, { name }, editor)
        : endpoints.remove(request, { name }, editor);
    };
    const client = createApiClient({ baseUrl: "http://localhost", fetch });
    await client.secrets.put("CLIENT_TOKEN", VALUE);
    expect(await client.secrets.list()).toEqual([{ name: "CLIENT_TOKEN", updatedAt: expect.any(String) }]);
    await client.secrets.remove("CLIENT_TOKEN");
    await expect(client.secrets.remove("CLIENT_TOKEN")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });

  it("lets a viewer list the names but answers 403 to a viewer's PUT and DELETE, changing nothing", async () => {
    const viewer = testMember(ws, "viewer");
    expect((await put("VIEWED_TOKEN", { value: VALUE })).status).toBe(204);

    const listed = await listResponse(viewer);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { secrets: Array<{ name: string }> }).secrets.map((item) => item.name)).toEqual([
      "VIEWED_TOKEN",
    ]);

    const refusedPut = await put("VIEWED_TOKEN", { value: "changed by a viewer" }, viewer);
    expect(refusedPut.status).toBe(403);
    expect(((await refusedPut.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    expect((await put("VIEWER_NEW", { value: VALUE }, viewer)).status).toBe(403);
    expect((await remove("VIEWED_TOKEN", viewer)).status).toBe(403);

    expect(await database.repositories.secrets.get(ws, "VIEWED_TOKEN")).toBe(VALUE);
    expect(await database.repositories.secrets.get(ws, "VIEWER_NEW")).toBeNull();
    expect((await remove("VIEWED_TOKEN")).status).toBe(204);
  });

  it("answers 401 without a member", async () => {
    expect((await endpoints.list(new Request("http://localhost/api/secrets"), {})).status).toBe(401);
  });

  it("refuses a lowercase name with 400 (names are capitals, digits and _)", async () => {
    const response = await put("openai_api_key", { value: VALUE });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    expect(await database.repositories.secrets.get(ws, "openai_api_key")).toBeNull();
  });

  it("works in the member's workspace only: another workspace neither sees nor deletes the secrets", async () => {
    const other = testMember(await database.createWorkspace("Other"), "owner");
    expect((await put("SCOPED_TOKEN", { value: VALUE })).status).toBe(204);
    expect((await list(other)).secrets).toEqual([]);
    expect((await remove("SCOPED_TOKEN", other)).status).toBe(404);
    expect((await put("SCOPED_TOKEN", { value: "the other's value" }, other)).status).toBe(204);
    expect(await database.repositories.secrets.get(ws, "SCOPED_TOKEN")).toBe(VALUE);
    expect((await remove("SCOPED_TOKEN")).status).toBe(204);
    expect((await list(other)).secrets.map((item) => item.name)).toEqual(["SCOPED_TOKEN"]);
  });
});

describe("secret endpoints, page by page", () => {
  const listOf = (as: Member) => (query: string) =>
    endpoints.list(new Request(`http://localhost/api/secrets${query}`), {}, as);
  async function workspaceWithSecrets(names: string[]) {
    const workspaceId = await database.createWorkspace();
    for (const name of names) await database.repositories.secrets.set(workspaceId, name, VALUE);
    return testMember(workspaceId, "viewer");
  }

  it("walks every secret name exactly once, by name, with no value on any page", async () => {
    const names = Array.from({ length: 11 }, (_, index) => `TOKEN_${String.fromCharCode(75 - index)}`);
    const member = await workspaceWithSecrets(names);
    const { items, pages } = await walkPages<{ name: string }>(listOf(member), "secrets", 4);
    expect(pages).toBe(3);
    expect(items.map((item) => item.name)).toEqual([...names].sort());
    expect(JSON.stringify(items)).not.toContain(VALUE);
  });

  it("refuses a malformed or foreign cursor and a limit over the maximum", async () => {
    await expectPagingRefusals(listOf(await workspaceWithSecrets(["ONE"])));
  });

  it("lists only the caller's workspace's secrets whatever cursor it carries", async () => {
    const ours = await workspaceWithSecrets(["A_OURS", "B_OURS"]);
    const theirs = await workspaceWithSecrets(["C_THEIRS", "D_THEIRS"]);
    const cursor = await firstCursor(listOf(ours), 1);
    const page = await readPage(listOf(theirs), { cursor });
    expect(page.secrets).toEqual([
      expect.objectContaining({ name: "C_THEIRS" }),
      expect.objectContaining({ name: "D_THEIRS" }),
    ]);
  });
});

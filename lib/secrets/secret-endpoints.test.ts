import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, MAX_SECRET_VALUE_BYTES } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { secretEndpoints, type SecretEndpoints } from "./secret-endpoints";

let database: TestDatabase;
let endpoints: SecretEndpoints;
beforeAll(async () => {
  database = await createTestDatabase();
  endpoints = secretEndpoints(() => database.repositories.secrets);
});
afterAll(() => database?.close());

const VALUE = "sk-live-endpoint-test-0123456789";

function put(name: string, body: unknown, contentType = "application/json") {
  return endpoints.put(
    new Request(`http://localhost/api/secrets/${encodeURIComponent(name)}`, {
      method: "PUT",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { name },
  );
}
const remove = (name: string) => endpoints.remove(new Request(`http://localhost/api/secrets/${name}`, { method: "DELETE" }), { name });
const list = async () => (await (await endpoints.list(new Request("http://localhost/api/secrets"), {})).json()) as { secrets: Array<Record<string, unknown>> };

describe("secret endpoints", () => {
  it("creates with PUT (204), lists names and dates only, replaces on a second PUT and deletes (204)", async () => {
    const created = await put("SUPPORT_TOKEN", { value: VALUE });
    expect(created.status).toBe(204);
    expect(await created.text()).toBe("");

    const first = await list();
    expect(first.secrets).toEqual([{ name: "SUPPORT_TOKEN", updatedAt: expect.any(String) }]);
    expect(JSON.stringify(first)).not.toContain(VALUE);

    expect((await put("SUPPORT_TOKEN", { value: `${VALUE}-2` })).status).toBe(204);
    expect(await database.repositories.secrets.get("SUPPORT_TOKEN")).toBe(`${VALUE}-2`);
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
      const body = (await response.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } };
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
    ["a value over 64 KB in UTF-8 bytes", { value: "é".repeat(MAX_SECRET_VALUE_BYTES / 2 + 1) }, "value: must be at most 64 KB"],
  ])("refuses %s with 400, storing nothing", async (_what, body, message) => {
    const response = await put("REFUSED_VALUE", body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    expect(await database.repositories.secrets.get("REFUSED_VALUE")).toBeNull();
  });

  it("accepts a value of exactly 64 KB", async () => {
    expect((await put("BIG_VALUE", { value: "x".repeat(MAX_SECRET_VALUE_BYTES) })).status).toBe(204);
    expect((await database.repositories.secrets.get("BIG_VALUE"))?.length).toBe(MAX_SECRET_VALUE_BYTES);
    expect((await remove("BIG_VALUE")).status).toBe(204);
  });

  it("is what the API client's secrets methods call", async () => {
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const name = decodeURIComponent(new URL(request.url).pathname.split("/")[3] ?? "");
      if (request.method === "GET") return endpoints.list(request, {});
      return request.method === "PUT" ? endpoints.put(request, { name }) : endpoints.remove(request, { name });
    };
    const client = createApiClient({ baseUrl: "http://localhost", fetch });
    await client.secrets.put("CLIENT_TOKEN", VALUE);
    expect(await client.secrets.list()).toEqual([{ name: "CLIENT_TOKEN", updatedAt: expect.any(String) }]);
    await client.secrets.remove("CLIENT_TOKEN");
    await expect(client.secrets.remove("CLIENT_TOKEN")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });
});

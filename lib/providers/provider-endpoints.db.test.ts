import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderConnectionCheck, ProviderList } from "@/contract";
import { auditRequestsTo } from "@/lib/audit";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { loadRunEnvironment } from "@/lib/runtime/run-environment";
import { secretEndpoints, type SecretEndpoints } from "@/lib/secrets/secret-endpoints";
import { createProviderFetch } from "@/providers";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { providerEndpoints, type ProviderEndpoints } from "./provider-endpoints";

/**
 * Settings › Model providers over a real database: a key set as the workspace's secret (what the
 * page does) is the one the status reports and test connection sends, and no answer holds it.
 */

let database: TestDatabase;
let llm: TestLlmServer;
let secrets: SecretEndpoints;
let providers: ProviderEndpoints;
let ws: string;
let editor: Member;
/** The server's environment: an OpenAI key and server, no Anthropic key. */
let processEnv: Record<string, string>;

const OPERATOR_KEY = "sk-operator-0123456789";
const WORKSPACE_KEY = "sk-ant-workspace-9876543210";

beforeAll(async () => {
  database = await createTestDatabase();
  llm = await startTestLlmServer();
  ws = await database.createWorkspace();
  editor = testMember(ws, "editor");
  processEnv = {
    OPENAI_API_KEY: OPERATOR_KEY,
    OPENAI_BASE_URL: llm.openaiBaseUrl,
    ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
  };
  secrets = secretEndpoints(
    () => database.repositories.secrets,
    auditRequestsTo(() => database.prisma),
  );
  providers = providerEndpoints(
    async (workspaceId) =>
      (await loadRunEnvironment(database.repositories.secrets, workspaceId, (name) => processEnv[name])).providerEnv,
    (operator) => createProviderFetch(operator),
  );
});
afterAll(async () => {
  await llm?.close();
  await database?.close();
});

async function list(as: Member = editor): Promise<{ text: string; body: ProviderList }> {
  const response = await providers.list(new Request("http://localhost/api/providers"), {}, as);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as ProviderList };
}
const statusOf = async (id: string) => (await list()).body.providers.find((provider) => provider.id === id);

function test(provider: string, as: Member = editor) {
  return providers.test(
    new Request(`http://localhost/api/providers/${provider}/test`, { method: "POST" }),
    { provider },
    as,
  );
}

function setKey(name: string, value: string) {
  return secrets.put(
    new Request(`http://localhost/api/secrets/${name}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value }),
    }),
    { name },
    editor,
  );
}

describe("model provider endpoints", () => {
  it("reports the operator's key as from the environment and a key no one set as missing", async () => {
    expect(await statusOf("openai")).toMatchObject({ keySource: "environment", keyVariable: "OPENAI_API_KEY" });
    expect(await statusOf("anthropic")).toMatchObject({
      keySource: "missing",
      missingSetting: "ANTHROPIC_API_KEY",
    });
    const missing = (await (await test("anthropic")).json()) as ProviderConnectionCheck;
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain("ANTHROPIC_API_KEY");
  });

  it("takes a key stored as the workspace's secret from the next request, and never answers with it", async () => {
    expect((await setKey("ANTHROPIC_API_KEY", WORKSPACE_KEY)).status).toBe(204);
    const { text, body } = await list();
    expect(body.providers.find((provider) => provider.id === "anthropic")).toMatchObject({ keySource: "workspace" });
    expect(body.providers.find((provider) => provider.id === "anthropic")!.missingSetting).toBeUndefined();
    expect(text).not.toContain(WORKSPACE_KEY);
    expect(text).not.toContain(OPERATOR_KEY);

    const response = await test("anthropic");
    const answer = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(answer)).toMatchObject({ ok: true, status: 200 });
    expect(answer).not.toContain(WORKSPACE_KEY);
  });

  it("uses the workspace's key before the operator's: a wrong one is reported refused", async () => {
    expect((await setKey("OPENAI_API_KEY", "sk-invalid-workspace-key")).status).toBe(204);
    expect(await statusOf("openai")).toMatchObject({ keySource: "workspace" });
    const answer = (await (await test("openai")).json()) as ProviderConnectionCheck;
    expect(answer).toMatchObject({ ok: false, status: 401, message: "OpenAI refused the key (HTTP 401)." });
  });

  it("answers 404 for a provider that does not exist, and lets viewers read but not test", async () => {
    const unknown = await test("not-a-provider");
    expect(unknown.status).toBe(404);
    const viewer = testMember(ws, "viewer");
    expect((await list(viewer)).body.providers.length).toBeGreaterThan(0);
    expect((await test("openai", viewer)).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { checkProviderConnection } from "./provider-connection-check";
import { createProviderFetch } from "./provider-settings";
import { providerStatuses } from "./provider-status";
import { PROVIDER_IDS } from "./provider-table";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";
import { testServerEnv } from "./testing/test-model-registry";

const envOf = (values: Record<string, string | undefined>) => (name: string) => values[name];

let llm: TestLlmServer;
/** A loopback service no workspace may make the server call (an internal API). */
let internal: LocalServer;
beforeAll(async () => {
  llm = await startTestLlmServer();
  internal = await startLocalServer((_request, response) => response.end("{}"));
});
afterAll(async () => {
  await llm.close();
  await internal.close();
});

describe("where each provider's key comes from", () => {
  it("says workspace, environment, missing or not needed, and holds variable names, never values", () => {
    const statuses = providerStatuses({
      operator: envOf({ OPENAI_API_KEY: "sk-operator-value", ANTHROPIC_API_KEY: "sk-ant-operator" }),
      workspace: envOf({ ANTHROPIC_API_KEY: "sk-ant-workspace-value" }),
    });
    const byId = Object.fromEntries(statuses.map((status) => [status.id, status]));
    expect(statuses.map((status) => status.id)).toEqual(PROVIDER_IDS);
    expect(byId.openai).toMatchObject({ keySource: "environment", keyVariable: "OPENAI_API_KEY", testable: true });
    expect(byId.openai!.missingSetting).toBeUndefined();
    expect(byId.anthropic).toMatchObject({ keySource: "workspace" });
    expect(byId.google).toMatchObject({ keySource: "missing", missingSetting: "GOOGLE_GENERATIVE_AI_API_KEY" });
    expect(byId.ollama).toMatchObject({ keySource: "not-needed", keyRequired: false });
    expect(byId.ollama!.keyVariable).toBeUndefined();
    // No key needed, but no server either: named as the setting to set.
    expect(byId["openai-compatible"]).toMatchObject({
      keySource: "not-needed",
      missingSetting: "OPENAI_COMPATIBLE_BASE_URL",
    });
    expect(byId.offline).toMatchObject({ keySource: "not-needed", testable: false });
    const text = JSON.stringify(statuses);
    for (const value of ["sk-operator-value", "sk-ant-operator", "sk-ant-workspace-value"])
      expect(text).not.toContain(value);
  });

  it("treats a blank secret as unset, as a run does", () => {
    const [openai] = providerStatuses({ operator: envOf({}), workspace: envOf({ OPENAI_API_KEY: "  " }) });
    expect(openai).toMatchObject({ id: "openai", keySource: "missing" });
  });
});

describe("test connection", () => {
  const operatorOf = (extra: Record<string, string> = {}) => envOf({ ...testServerEnv(llm), ...extra });
  const guardedFetch = (operator: (name: string) => string | undefined) => createProviderFetch(operator);

  it.each(PROVIDER_IDS.filter((provider) => provider !== "offline"))(
    "asks %s's server for its model list and reports it answered",
    async (provider) => {
      const operator = operatorOf();
      const result = await checkProviderConnection(provider, operator, guardedFetch(operator));
      expect(result).toMatchObject({ ok: true, status: 200 });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    },
  );

  it("uses the workspace's key before the operator's, and reports a refused key without quoting it", async () => {
    const operator = operatorOf();
    const result = await checkProviderConnection(
      "openai",
      { operator, workspace: envOf({ OPENAI_API_KEY: "sk-invalid-workspace-key" }) },
      guardedFetch(operator),
    );
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(result.message).toBe("OpenAI refused the key (HTTP 401).");
    expect(JSON.stringify(result)).not.toContain("sk-invalid-workspace-key");
  });

  it("reports a missing key without calling anything, and the offline model as nothing to reach", async () => {
    const operator = envOf({});
    const missing = await checkProviderConnection("anthropic", operator, guardedFetch(operator));
    expect(missing.ok).toBe(false);
    expect(missing.message).toContain("ANTHROPIC_API_KEY");
    expect(await checkProviderConnection("offline", operator, guardedFetch(operator))).toMatchObject({ ok: true });
  });

  it("refuses a base URL the workspace stored, and goes through the outbound guard", async () => {
    const operator = operatorOf();
    const workspaceUrl = await checkProviderConnection(
      "openai",
      { operator, workspace: envOf({ OPENAI_BASE_URL: internal.origin }) },
      guardedFetch(operator),
    );
    expect(workspaceUrl).toMatchObject({ ok: false });
    expect(workspaceUrl.message).toContain("OPENAI_BASE_URL");
    // A guard that trusts no operator server refuses the loopback address before sending.
    const refused = await checkProviderConnection(
      "openai",
      envOf({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${internal.origin}/v1` }),
      createProviderFetch(envOf({})),
    );
    expect(refused.ok).toBe(false);
    expect(internal.received).toEqual([]);
  });
});

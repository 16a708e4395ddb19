import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunRecord } from "@/contract";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { PROVIDERS, type ProviderId } from "@/providers";
import { TEST_WIRE_FORMATS } from "@/providers/testing/test-model-registry";

/**
 * Issue 30, SSRF through model calls: a signed-in user, in a workspace of their own, stores a secret
 * named like a provider's base URL. No run may then send a request to the address it names (a
 * loopback listener stands in for an internal service or a metadata endpoint), and what a server
 * answers is copied into a run only when it is the provider's own error.
 */

const CANARY = "ASIA-INTERNAL-CANARY-41b9";

let kit: RunTestKit;
/** The address a workspace points a provider at: it must hear nothing. */
let listener: LocalServer;
/** The operator's OpenAI-compatible server, answering in no provider's shape. */
let offShape: LocalServer;

beforeAll(async () => {
  listener = await startLocalServer((_request, response) => response.end(JSON.stringify({ AccessKeyId: CANARY })));
  offShape = await startLocalServer((_request, response) => {
    response.writeHead(502, `Bad ${CANARY}`, { "content-type": "text/html" });
    response.end(`<html><body>internal proxy error, upstream ${CANARY}</body></html>`);
  });
  // Every provider points at the test LLM server (the operator's environment), the OpenAI-compatible one at `offShape`.
  kit = await startRunTestKit({ processEnv: { OPENAI_COMPATIBLE_BASE_URL: `${offShape.origin}/v1` } });
});
afterAll(async () => {
  await kit?.close();
  await listener?.close();
  await offShape?.close();
});
beforeEach(() => {
  listener.received.length = 0;
  kit.server.requests.length = 0;
});

/** start -> agent on `model`; runs it to its end and returns the run and every stored event, as text. */
async function runAgent(workspaceId: string, model: string): Promise<{ run: RunRecord; everything: string }> {
  const document = {
    name: `agent ${model}`,
    description: "",
    variables: {},
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
      { id: "agent", type: "agent", name: "Agent", position: { x: 200, y: 0 }, config: { model, userPrompt: "Hi" } },
    ],
    edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
  };
  const workflowId = (await kit.database.repositories.workflows.create(workspaceId, document as never)).id;
  const run = await (await kit.runtime.runs.start(workspaceId, workflowId)).done;
  const events = await kit.database.repositories.runEvents.listAfter(run.id);
  return { run, everything: JSON.stringify([run, events]) };
}

const PROVIDERS_WITH_SERVERS = (Object.keys(PROVIDERS) as ProviderId[]).filter(
  (provider) => PROVIDERS[provider].baseUrlVariable,
);

describe("a provider base URL stored as a workspace secret", () => {
  it.each(PROVIDERS_WITH_SERVERS)(
    "fails a %s run with an error naming the secret, and the address it names hears nothing",
    async (provider) => {
      const { baseUrlVariable, apiKeyVariable } = PROVIDERS[provider];
      const workspace = await kit.database.createWorkspace();
      await kit.database.repositories.secrets.set(workspace, baseUrlVariable!, `${listener.origin}/v1`);
      if (apiKeyVariable)
        await kit.database.repositories.secrets.set(workspace, apiKeyVariable, "sk-workspace-own-0123456789");
      const { run } = await runAgent(workspace, `${provider}/${TEST_WIRE_FORMATS[provider].sampleModel}`);
      expect(run.status).toBe("failed");
      expect(run.error).toMatchObject({ code: "outbound_refused" });
      expect(run.error?.message).toContain(`stores a secret named ${baseUrlVariable}`);
      expect(listener.received).toEqual([]);
      // Nor does the operator's server get the workspace's key under a base URL the workspace did not mean.
      expect(kit.server.requests).toEqual([]);
    },
  );

  it("leaves the operator's server working for a workspace that stores only its key", async () => {
    const workspace = await kit.database.createWorkspace();
    await kit.database.repositories.secrets.set(workspace, "OPENAI_API_KEY", "sk-workspace-own-0123456789");
    kit.server.enqueue({ kind: "text", text: "answered by the operator's server" });
    const { run } = await runAgent(workspace, "openai/gpt-4o-mini");
    expect(run.status).toBe("succeeded");
    expect(kit.server.requests.map((request) => request.headers.authorization)).toEqual([
      "Bearer sk-workspace-own-0123456789",
    ]);
  });
});

describe("a server's answer in no provider's shape", () => {
  it("is not copied into the run: its error names the provider and the status only", async () => {
    const workspace = await kit.database.createWorkspace();
    const { run, everything } = await runAgent(workspace, "openai-compatible/any-model");
    expect(run.status).toBe("failed");
    expect(run.error?.message).toContain("(HTTP 502)");
    expect(run.error?.message).toContain("its answer was not a provider error, so it is not shown");
    expect(everything).not.toContain(CANARY);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { TEST_KEYS } from "@/providers/testing/test-model-registry";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Done-when of issue 13: no workflow can read a process variable outside TRELLIS_WORKFLOW_ENV,
 * whichever field it tries (Response data, API URL, headers and body, Function code, prompts),
 * while the operator's provider keys still run models and stored secrets are read from the next run.
 */

const SERVER_CONFIG: Record<string, string> = {
  DATABASE_URL: "postgres://trellis:db-password-91f2@db.internal:5432/trellis",
  TRELLIS_SECRET_KEY: "server-secret-key-3c9a1e77d0b24f6a",
  HOME: "/home/server-home-7d1c",
  PATH: "/usr/local/server-path-5e2a/bin",
  DATA_DIR: "/var/lib/trellis-data-8b4f",
};
const ALLOWED = { name: "ALLOWED_REGION", value: "eu-west-allowed-1f" };
const FORBIDDEN: Array<[string, string]> = [
  ...Object.entries(SERVER_CONFIG),
  ["OPENAI_API_KEY", TEST_KEYS.OPENAI_API_KEY],
  ["TRELLIS_WORKFLOW_ENV", ALLOWED.name],
];

let kit: RunTestKit;
let target: LocalServer;
/** The workspace the runs belong to, and another one. */
let ws: string;
let otherWs: string;
let member: Member;

beforeAll(async () => {
  target = await startLocalServer((_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ ok: true }));
  });
  kit = await startRunTestKit({
    processEnv: { ...SERVER_CONFIG, TRELLIS_WORKFLOW_ENV: ALLOWED.name, [ALLOWED.name]: ALLOWED.value },
    guardedFetch: createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` }),
  });
  ws = await kit.database.createWorkspace();
  otherWs = await kit.database.createWorkspace("Other");
  member = testMember(ws, "editor");
});
afterAll(async () => {
  await kit?.close();
  await target?.close();
});
beforeEach(() => {
  target.received.length = 0;
  kit.server.requests.length = 0;
});

interface Block {
  id: string;
  type: string;
  config: Record<string, unknown>;
}

/** start -> blocks in a line. */
async function linearWorkflow(blocks: Block[]): Promise<string> {
  const all = [{ id: "start", type: "start", config: { inputs: [] } }, ...blocks];
  const document = {
    name: `env ${blocks.map((block) => block.type).join(" ")}`,
    description: "",
    variables: {},
    blocks: all.map((block, index) => ({
      ...block,
      name: block.id === "start" ? "Start" : block.id,
      position: { x: index * 200, y: 0 },
    })),
    edges: all
      .slice(1)
      .map((block, index) => ({ id: `e${index}`, source: all[index]!.id, target: block.id, sourceHandle: "out" })),
  };
  return (await kit.database.repositories.workflows.create(ws, document as never)).id;
}

interface RunAnswer {
  id: string;
  status: string;
  output: unknown;
  error: { code: string; message: string } | null;
}

/** Runs with `wait: true` and returns the answer and every stored byte of the run, as text. */
async function run(blocks: Block[]): Promise<{ answer: RunAnswer; everything: string }> {
  const workflowId = await linearWorkflow(blocks);
  const response = await kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ wait: true }),
    }),
    { id: workflowId },
    member,
  );
  const answer = (await response.json()) as RunAnswer;
  const events = await kit.database.repositories.runEvents.listAfter(answer.id);
  return { answer, everything: JSON.stringify([answer, events]) };
}

function expectRefused(result: { answer: RunAnswer; everything: string }, name: string, value: string) {
  expect(result.answer.status).toBe("failed");
  expect(result.answer.output).toBeNull();
  expect(result.answer.error?.message).toContain(
    `no secret named ${name}: add it on the Secrets page, or list it in TRELLIS_WORKFLOW_ENV`,
  );
  expect(result.everything).not.toContain(value);
}

const response = (data: unknown): Block => ({ id: "response", type: "response", config: { data } });
const api = (config: Record<string, unknown>): Block => ({
  id: "api",
  type: "api",
  config: { method: "POST", ...config },
});

describe("{{NAME}} reads stored secrets and TRELLIS_WORKFLOW_ENV only", () => {
  it.each(FORBIDDEN)("a Response block cannot return %s", async (name, value) => {
    expectRefused(await run([response({ leaked: `{{${name}}}` })]), name, value);
    expectRefused(await run([response(`value: {{${name}}}`)]), name, value);
  });

  it.each([
    ["URL", (name: string) => ({ url: `${target?.origin}/items?key={{${name}}}` })],
    ["headers", (name: string) => ({ url: `${target?.origin}/items`, headers: { "X-Leak": `{{${name}}}` } })],
    [
      "body",
      (name: string) => ({ url: `${target?.origin}/items`, body: { leak: `{{${name}}}`, nested: [`x {{${name}}}`] } }),
    ],
  ])("an API block cannot send a server variable in its %s, and nothing reaches the target", async (_field, config) => {
    for (const [name, value] of FORBIDDEN) {
      expectRefused(await run([api(config(name))]), name, value);
      expect(target.received).toEqual([]);
    }
  });

  it("an API block sends an allowed variable, and the run shows it masked", async () => {
    const result = await run([
      api({
        url: `${target.origin}/items?region={{${ALLOWED.name}}}`,
        headers: { "X-Region": `{{${ALLOWED.name}}}` },
        body: { region: `{{${ALLOWED.name}}}` },
      }),
      response({ sent: `{{${ALLOWED.name}}}`, answer: "<api.data>" }),
    ]);
    expect(result.answer.status).toBe("succeeded");
    expect(target.received).toHaveLength(1);
    const [received] = target.received;
    expect(received!.url).toBe(`/items?region=${ALLOWED.value}`);
    expect(received!.headers["x-region"]).toBe(ALLOWED.value);
    expect(JSON.parse(received!.body)).toEqual({ region: ALLOWED.value });
    expect(result.answer.output).toEqual({ sent: `[secret:${ALLOWED.name}]`, answer: { ok: true } });
    expect(result.everything).not.toContain(ALLOWED.value);
  });

  it.each(FORBIDDEN)("Function code cannot read %s", async (name, value) => {
    expectRefused(await run([{ id: "fn", type: "function", config: { code: `return "{{${name}}}";` } }]), name, value);
    expectRefused(
      await run([{ id: "fn", type: "function", config: { code: `const v = {{${name}}};\nreturn v;` } }]),
      name,
      value,
    );
  });

  it("Function code reads an allowed variable", async () => {
    const result = await run([
      { id: "fn", type: "function", config: { code: `return "{{${ALLOWED.name}}}".length;` } },
      response("<fn.result>"),
    ]);
    expect(result.answer).toMatchObject({ status: "succeeded", output: ALLOWED.value.length });
  });

  it.each(["systemPrompt", "userPrompt"])(
    "an agent's %s cannot read a server variable, and the model receives nothing",
    async (field) => {
      for (const [name, value] of FORBIDDEN) {
        const result = await run([
          {
            id: "agent",
            type: "agent",
            config: { model: "openai/gpt-4o-mini", userPrompt: "Hello", [field]: `Use {{${name}}} now` },
          },
        ]);
        expectRefused(result, name, value);
        expect(kit.server.requests).toEqual([]);
      }
    },
  );

  it("the operator's provider key runs models, though no workflow can read it", async () => {
    kit.server.enqueue({ kind: "text", text: "Hi there." });
    const result = await run([
      { id: "agent", type: "agent", config: { model: "openai/gpt-4o-mini", userPrompt: "Say hi" } },
      response("<agent.content>"),
    ]);
    expect(result.answer).toMatchObject({ status: "succeeded", output: "Hi there." });
    expect(kit.server.requests).toHaveLength(1);
    expect(kit.server.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEYS.OPENAI_API_KEY}`);
    // The prompt the model received holds no server variable.
    const sent = JSON.stringify(kit.server.requests[0]!.body);
    for (const [, value] of FORBIDDEN) expect(sent).not.toContain(value);
  });

  it("an agent's prompt reads a stored secret; the model receives it and the run shows it masked", async () => {
    await kit.database.repositories.secrets.set(ws, "PROMPT_TOKEN", "stored-prompt-token-61c2");
    kit.server.enqueue({ kind: "text", text: "Your token is stored-prompt-token-61c2." });
    const result = await run([
      {
        id: "agent",
        type: "agent",
        config: { model: "openai/gpt-4o-mini", userPrompt: "The token is {{PROMPT_TOKEN}}" },
      },
      response("<agent.content>"),
    ]);
    expect(result.answer).toMatchObject({ status: "succeeded", output: "Your token is [secret:PROMPT_TOKEN]." });
    expect(kit.server.requests[0]!.parsed.userTexts.join(" ")).toContain("The token is stored-prompt-token-61c2");
    expect(result.everything).not.toContain("stored-prompt-token-61c2");
  });

  it("reads secrets of the run's workspace only: another workspace's secret is refused like an unknown name", async () => {
    const theirs = "other-workspace-secret-4a7e";
    await kit.database.repositories.secrets.set(otherWs, "OTHER_WORKSPACE_TOKEN", theirs);
    expectRefused(await run([response({ leaked: "{{OTHER_WORKSPACE_TOKEN}}" })]), "OTHER_WORKSPACE_TOKEN", theirs);
    expectRefused(
      await run([api({ url: `${target.origin}/items`, headers: { "X-Leak": "{{OTHER_WORKSPACE_TOKEN}}" } })]),
      "OTHER_WORKSPACE_TOKEN",
      theirs,
    );
    expect(target.received).toEqual([]);

    // The same name in both workspaces: the run gets its own workspace's value, never the other's.
    await kit.database.repositories.secrets.set(otherWs, "SHARED_TOKEN", "shared-name-theirs-0b31");
    await kit.database.repositories.secrets.set(ws, "SHARED_TOKEN", "shared-name-mine-9d52");
    const result = await run([
      { id: "fn", type: "function", config: { code: 'return "{{SHARED_TOKEN}}".length;' } },
      response("<fn.result>"),
    ]);
    expect(result.answer).toMatchObject({ status: "succeeded", output: "shared-name-mine-9d52".length });
    const masked = await run([response({ token: "{{SHARED_TOKEN}}" })]);
    expect(masked.answer).toMatchObject({ status: "succeeded", output: { token: "[secret:SHARED_TOKEN]" } });
    expect(masked.everything).not.toContain("shared-name-theirs-0b31");
    expect(masked.everything).not.toContain("shared-name-mine-9d52");
  });
});

describe("a provider key stored as a secret", () => {
  let keyless: RunTestKit;
  beforeAll(async () => {
    keyless = await startRunTestKit({ processEnv: { OPENAI_API_KEY: undefined } });
  });
  afterAll(() => keyless?.close());

  it("runs models from the next run on, with no restart, and a replaced key from the run after", async () => {
    const keylessWs = await keyless.database.createWorkspace();
    const secrets = secretEndpoints(
      () => keyless.database.repositories.secrets,
      auditRequestsTo(() => keyless.database.prisma),
    );
    const document = {
      name: "Keyed",
      description: "",
      variables: {},
      blocks: [
        { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
        {
          id: "agent",
          type: "agent",
          name: "Agent",
          position: { x: 200, y: 0 },
          config: { model: "openai/gpt-4o-mini", userPrompt: "Hi" },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent", sourceHandle: "out" }],
    };
    const workflowId = (await keyless.database.repositories.workflows.create(keylessWs, document as never)).id;
    const runOnce = async () => (await (await keyless.runtime.runs.start(keylessWs, workflowId)).done).status;
    const putKey = (value: string) =>
      secrets.put(
        new Request("http://localhost/api/secrets/OPENAI_API_KEY", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ value }),
        }),
        { name: "OPENAI_API_KEY" },
        testMember(keylessWs, "editor"),
      );

    expect(await runOnce()).toBe("failed");
    expect(keyless.server.requests).toHaveLength(0);

    // A key stored in another workspace does not run this workspace's models.
    await keyless.database.repositories.secrets.set(
      await keyless.database.createWorkspace("Other"),
      "OPENAI_API_KEY",
      "sk-other-workspace-0003",
    );
    expect(await runOnce()).toBe("failed");
    expect(keyless.server.requests).toHaveLength(0);

    // The workspace's own key goes to the operator's server for the provider (OPENAI_BASE_URL of the process).
    expect((await putKey("sk-stored-first-0001")).status).toBe(204);
    expect(await runOnce()).toBe("succeeded");
    expect(keyless.server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-stored-first-0001");

    expect((await putKey("sk-stored-second-0002")).status).toBe(204);
    expect(await runOnce()).toBe("succeeded");
    expect(keyless.server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-stored-second-0002");
  });
});

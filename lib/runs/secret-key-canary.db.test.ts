import { Buffer } from "node:buffer";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAttemptLimiter, parseTrustedProxies } from "@/lib/auth";
import { ChatBrowser } from "@/lib/chat/__fixtures__/chat-browser";
import { chatAccessTokens } from "@/lib/chat/chat-access";
import { chatEndpoints, chatSettingsEndpoints } from "@/lib/chat/chat-endpoints";
import { chatPasswordGuesses } from "@/lib/chat/chat-password-guesses";
import { ChatRepository } from "@/lib/chat/chat-repository";
import { createChatService } from "@/lib/chat/chat-service";
import { createChatSettings } from "@/lib/chat/chat-settings";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { answerMcpRequest } from "@/lib/mcp/mcp-server";
import { McpToolRepository } from "@/lib/mcp/mcp-tool-repository";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { startWebhookTestKit, type WebhookTestKit } from "@/lib/webhooks/__fixtures__/webhook-test-kit";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Issue 30, item 5: a Function block that returns a secret as an object key, split over strings
 * and in transformed forms (hex, char codes, separators, rot13, reversed) shows it nowhere: not in
 * the run's output, spans, streamed or replayed events, a replay, a diff, an MCP tool result, a
 * webhook's answer, a public chat's reply, nor in any stored row.
 */

const CANARY = "cnRy7Qx4-fZk9wTb2Lm";

/** The text's letters and digits, lower case: what is left of the canary once separators are put between its characters. */
const skeleton = (text: string) => text.replace(/[^a-z0-9]/gi, "").toLowerCase();
const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) =>
    String.fromCharCode(((c.charCodeAt(0) - (c <= "Z" ? 65 : 97) + 13) % 26) + (c <= "Z" ? 65 : 97)),
  );
const codes = [...CANARY].map((character) => character.charCodeAt(0));
const SKELETON_FORMS: Record<string, string> = {
  "clear, split or separated": skeleton(CANARY),
  reversed: skeleton([...CANARY].reverse().join("")),
  rot13: skeleton(rot13(CANARY)),
  hex: codes.map((code) => code.toString(16).padStart(2, "0")).join(""),
  "char codes": codes.join(""),
};

function expectNoCanary(what: string, text: string) {
  expect(text.toLowerCase().includes(CANARY.toLowerCase()), `${what} holds the canary`).toBe(false);
  const letters = skeleton(text);
  for (const [form, value] of Object.entries(SKELETON_FORMS))
    expect(letters.includes(value), `${what} holds the canary (${form})`).toBe(false);
}

/** The Function's code: the secret as keys (top level and nested) and in every transformed form, beside the message. */
const CODE = `
const secret = {{CANARY}};
const codes = [...secret].map((c) => c.charCodeAt(0));
const hex = codes.map((code) => code.toString(16).padStart(2, "0")).join("");
const rot13 = (text) => text.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.charCodeAt(0) - (c <= "Z" ? 65 : 97) + 13) % 26) + (c <= "Z" ? 65 : 97)));
return {
  [secret]: 1,
  nested: { [secret.toUpperCase()]: { deeper: true }, ["x-" + secret]: [1] },
  hex,
  HEX: hex.toUpperCase(),
  codes,
  codeText: codes.join(", "),
  dashed: [...secret].join("-"),
  spaced: [...secret].join(" "),
  rot13: rot13(secret),
  reversed: [...secret].reverse().join(""),
  split: [secret.slice(0, 6), secret.slice(6, 12), secret.slice(12)],
  splitValues: { a: secret.slice(0, 9), b: secret.slice(9) },
  said: <start.message>,
};`;

const block = (id: string, type: string, name: string, config: Record<string, unknown>) => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  config,
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });
const document = {
  name: "Key canary",
  blocks: [
    block("start", "start", "Start", {
      inputs: [
        { name: "message", type: "string", default: "hello" },
        { name: "history", type: "array", default: [] },
      ],
    }),
    block("fn", "function", "Leak", { code: CODE }),
    block("reply", "response", "Reply", { data: "<Leak.result>" }),
  ],
  edges: [edge("start", "fn"), edge("fn", "reply")],
};

let t: WebhookTestKit;
let workflowId: string;
const editor = () => testMember(t.workspaceId, "editor");
const viewer = () => testMember(t.workspaceId, "viewer");

beforeAll(async () => {
  t = await startWebhookTestKit();
  const stored = await secretEndpoints(
    () => t.kit.database.repositories.secrets,
    auditRequestsTo(() => t.kit.database.prisma),
  ).put(
    new Request("http://localhost/api/secrets/CANARY", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value: CANARY }),
    }),
    { name: "CANARY" },
    editor(),
  );
  expect(stored.status).toBe(204);
  workflowId = (await t.kit.database.repositories.workflows.create(t.workspaceId, document as never)).id;
  await createDeploymentService(t.kit.database.repositories).deploy(t.workspaceId, workflowId, {
    note: "",
    userId: null,
  });
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, accept = "application/json") =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify(body),
  });

/** Every stored row of the tables a run, a webhook delivery or a chat writes, as the database holds it. */
async function storedRows(): Promise<string> {
  const rows: string[] = [];
  for (const table of ["runs", "spans", "run_events", "block_checkpoints", "webhook_deliveries", "chat_messages"]) {
    const result = await t.kit.database.prisma.$queryRawUnsafe<Array<{ row: string }>>(
      `SELECT row_to_json(t)::text AS row FROM ${table} t`,
    );
    rows.push(...result.map((row) => row.row));
  }
  return rows.join("\n");
}

async function mcpCall(): Promise<string> {
  await new McpToolRepository(t.kit.database.prisma).save(t.workspaceId, workflowId, {
    enabled: true,
    toolName: "key_canary",
  });
  const caller = { workspaceId: t.workspaceId, role: "editor" as const, apiKeyId: "test-key" };
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    fetch: (url, init) =>
      answerMcpRequest(new Request(url, init), caller, {
        tools: new McpToolRepository(t.kit.database.prisma),
        runs: t.kit.runtime.runs,
      }),
  });
  const client = new Client({ name: "canary-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    return JSON.stringify(await client.callTool({ name: "key_canary", arguments: { message: "from mcp" } }));
  } finally {
    await client.close();
  }
}

async function chatReply(): Promise<string> {
  const chats = new ChatRepository(t.kit.database.prisma);
  const settings = chatSettingsEndpoints(
    () => createChatSettings(chats, t.kit.database.repositories),
    auditRequestsTo(() => t.kit.database.prisma),
  );
  const saved = await settings.save(
    post(`/api/workflows/${workflowId}/chat`, { enabled: true, title: "Canary" }),
    { id: workflowId },
    editor(),
  );
  expect(saved.status).toBe(200);
  const { chatId } = (await saved.json()) as { chatId: string };
  const key = Buffer.alloc(32, 7);
  const chat = chatEndpoints(() =>
    createChatService({
      chats,
      repositories: t.kit.database.repositories,
      runs: t.kit.runtime.runs,
      access: chatAccessTokens(() => key),
      passwordGuesses: chatPasswordGuesses(createAttemptLimiter(t.kit.database.prisma), () =>
        parseTrustedProxies(undefined),
      ),
      signedIn: async () => null,
    }),
  );
  const visitor = new ChatBrowser();
  const answer = visitor.keep(
    await chat.send(visitor.request("POST", `/api/chat/${chatId}/messages`, { message: "from chat" }), { chatId }),
  );
  expect(answer.status).toBe(200);
  return answer.text();
}

describe("a secret returned as an object key and in transformed forms", () => {
  it("is masked in the output, spans, events, replay, diff, MCP result, webhook answer, chat reply and every stored row", async () => {
    const streamed = await (
      await t.kit.endpoints.start(
        post(`/api/workflows/${workflowId}/runs`, { input: { message: "one" } }, "text/event-stream"),
        { id: workflowId },
        editor(),
      )
    ).text();
    const runId = /"runId":"([^"]+)"/.exec(streamed)?.[1];
    expect(runId, streamed).toBeDefined();
    const run = await (
      await t.kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId! }, viewer())
    ).text();
    const parsed = JSON.parse(run) as { status: string; output: Record<string, unknown>; spans: unknown[] };
    expect(parsed.status).toBe("succeeded");
    // The key is there, masked; the rest of the output is intact.
    expect(parsed.output).toMatchObject({ "[secret:CANARY]": 1, said: "one" });
    expect(Object.keys(parsed.output.nested as object)).toEqual(["[secret:CANARY]", "x-[secret:CANARY]"]);
    expect(parsed.spans.length).toBeGreaterThan(0);

    const events = await (
      await t.kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`), { id: runId! }, viewer())
    ).text();
    const replayed = await (
      await t.kit.endpoints.replay(post(`/api/runs/${runId}/replay`, { wait: true }), { id: runId! }, editor())
    ).text();
    expect(JSON.parse(replayed)).toMatchObject({ status: "succeeded", output: { "[secret:CANARY]": 1 } });
    const second = (await (await t.kit.runtime.runs.start(t.workspaceId, workflowId, { message: "two" })).done).id;
    const diff = await t.kit.endpoints.diff(
      new Request(`http://localhost/api/runs/${runId}/diff/${second}`),
      { id: runId!, otherId: second },
      viewer(),
    );
    expect(diff.status).toBe(200);
    const diffText = await diff.text();
    expect(diffText).toContain("two");

    const hook = await t.createHook(workflowId, { wait: true });
    const delivered = await t.deliver(hook.id, {
      body: JSON.stringify({ message: "from a hook" }),
      headers: { "content-type": "application/json" },
    });
    expect(delivered.status).toBe(200);
    const webhookAnswer = await delivered.text();
    expect(webhookAnswer).toContain("[secret:CANARY]");
    const mcpResult = await mcpCall();
    expect(mcpResult).toContain("[secret:CANARY]");
    const chatText = await chatReply();
    expect(chatText).toContain("[secret:CANARY]");

    const surfaces: Record<string, string> = {
      "the streamed events": streamed,
      "the run (output and spans)": run,
      "the replayed events": events,
      "the replay": replayed,
      "the diff": diffText,
      "the webhook answer": webhookAnswer,
      "the MCP result": mcpResult,
      "the chat reply": chatText,
      "the stored rows": await storedRows(),
    };
    for (const [what, text] of Object.entries(surfaces)) expectNoCanary(what, text);
  });
});

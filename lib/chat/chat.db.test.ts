import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import type { ChatConversationSummary, ChatMessageView, ChatSettings, PublicChatInfo } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { deploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { ChatBrowser, chatEvents } from "./__fixtures__/chat-browser";
import { createAttemptLimiter, parseTrustedProxies } from "@/lib/auth";
import { chatAccessTokens } from "./chat-access";
import { chatPasswordGuesses } from "./chat-password-guesses";
import { chatEndpoints, chatSettingsEndpoints, type ChatEndpoints, type ChatSettingsEndpoints } from "./chat-endpoints";
import { ChatRepository } from "./chat-repository";
import { createChatService } from "./chat-service";
import { createChatSettings } from "./chat-settings";
import { auditRequestsTo } from "@/lib/audit";

let kit: RunTestKit;
let settings: ChatSettingsEndpoints;
let chat: ChatEndpoints;
let ws: string;
const editor = () => testMember(ws, "editor");
/** The header the test's sign-in stands on: the user it names is signed in (membership is read from the database). */
const TEST_USER_HEADER = "x-test-user";

beforeAll(async () => {
  kit = await startRunTestKit();
  const chats = new ChatRepository(kit.database.prisma);
  const key = randomBytes(32);
  settings = chatSettingsEndpoints(
    () => createChatSettings(chats, kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  chat = chatEndpoints(() =>
    createChatService({
      chats,
      repositories: kit.database.repositories,
      runs: kit.runtime.runs,
      access: chatAccessTokens(() => key),
      passwordGuesses: chatPasswordGuesses(createAttemptLimiter(kit.database.prisma), () =>
        parseTrustedProxies(undefined),
      ),
      signedIn: async (request) => {
        const userId = request.headers.get(TEST_USER_HEADER);
        return userId ? { userId } : null;
      },
    }),
  );
  ws = await kit.database.createWorkspace();
});
afterAll(() => kit.close());

const block = (id: string, type: string, name: string, config: Record<string, unknown>) => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  config,
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

/** Start → (Classify →) Answer (an agent remembering `<start.history>`) → Reply. */
function chatDocument(options: { classify?: boolean } = {}) {
  const model = "openai/gpt-4o-mini";
  const start = block("start", "start", "Start", {
    inputs: [
      { name: "message", type: "string" },
      { name: "history", type: "array", default: [] },
    ],
  });
  const answer = block("answer", "agent", "Answer", {
    model,
    memories: "<start.history>",
    userPrompt: "<start.message>",
  });
  const reply = block("reply", "response", "Reply", { data: "<Answer.content>" });
  if (!options.classify)
    return {
      name: "Chatty",
      blocks: [start, answer, reply],
      edges: [edge("start", "answer"), edge("answer", "reply")],
    };
  const classify = block("classify", "agent", "Classify", { model, userPrompt: "Classify this: <start.message>" });
  return {
    name: "Chatty",
    blocks: [start, classify, answer, reply],
    edges: [edge("start", "classify"), edge("classify", "answer"), edge("answer", "reply")],
  };
}

async function workflow(options: { classify?: boolean; deploy?: boolean } = {}): Promise<string> {
  const { id } = await kit.database.repositories.workflows.create(ws, chatDocument(options) as never);
  if (options.deploy !== false) {
    const deployments = deploymentEndpoints(
      () => createDeploymentService(kit.database.repositories),
      auditRequestsTo(() => kit.database.prisma),
    );
    const request = new Request(`http://localhost/api/workflows/${id}/deployments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect((await deployments.create(request, { id }, editor())).status).toBe(201);
  }
  return id;
}

async function configure(workflowId: string, body: Record<string, unknown>): Promise<ChatSettings> {
  const request = new Request(`http://localhost/api/workflows/${workflowId}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await settings.save(request, { id: workflowId }, editor());
  expect(response.status).toBe(200);
  return (await response.json()) as ChatSettings;
}

const send = (browser: ChatBrowser, chatId: string, body: Record<string, unknown>) =>
  chat
    .send(browser.request("POST", `/api/chat/${chatId}/messages`, body), { chatId })
    .then((response) => browser.keep(response));

async function conversationsOf(browser: ChatBrowser, chatId: string): Promise<ChatConversationSummary[]> {
  const response = browser.keep(
    await chat.conversations(browser.request("GET", `/api/chat/${chatId}/conversations`), { chatId }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { conversations: ChatConversationSummary[] }).conversations;
}

const messagesOf = (browser: ChatBrowser, chatId: string, conversationId: string) =>
  chat.messages(browser.request("GET", `/api/chat/${chatId}/conversations/${conversationId}/messages`), {
    chatId,
    conversationId,
  });

const runsOf = (workflowId: string) =>
  kit.database.prisma.run.findMany({
    where: { workflowId },
    select: { triggerKind: true, conversationId: true, status: true },
  });

describe("chat settings", () => {
  it("enable a chat with a public URL, say whether the workflow is deployed, and hide other workspaces' workflows", async () => {
    const workflowId = await workflow({ deploy: false });
    const before = await settings.get(
      new Request(`http://localhost/api/workflows/${workflowId}/chat`),
      { id: workflowId },
      editor(),
    );
    expect(await before.json()).toEqual({ chatId: null, enabled: false, deployed: false });

    const enabled = await configure(workflowId, { enabled: true, title: "Ask us" });
    expect(enabled).toMatchObject({
      enabled: true,
      title: "Ask us",
      hasPassword: false,
      deployed: false,
      url: `http://localhost/chat/${enabled.chatId}`,
    });

    const viewer = testMember(ws, "viewer");
    const refused = await settings.save(
      new Request(`http://localhost/x`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"enabled":false}',
      }),
      { id: workflowId },
      viewer,
    );
    expect(refused.status).toBe(403);
    const stranger = testMember(await kit.database.createWorkspace(), "owner");
    expect((await settings.get(new Request("http://localhost/x"), { id: workflowId }, stranger)).status).toBe(404);
    const bad = await settings.save(
      new Request(`http://localhost/x`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"enabled":"yes","password":"ab"}',
      }),
      { id: workflowId },
      editor(),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/enabled.*password|password.*enabled/s);
  });
});

describe("the public chat", () => {
  it("answers 404 for an unknown or disabled chat and runs nothing; 409 not_deployed before a deployment, storing nothing", async () => {
    const visitor = new ChatBrowser();
    const unknown = await send(visitor, randomUUID(), { message: "hello" });
    expect(unknown.status).toBe(404);

    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true });
    await configure(workflowId, { enabled: false });
    const disabled = await send(visitor, chatId, { message: "hello" });
    expect(disabled.status).toBe(404);
    expect((await chat.info(visitor.request("GET", `/api/chat/${chatId}`), { chatId })).status).toBe(404);
    expect(await runsOf(workflowId)).toEqual([]);

    const draftOnly = await workflow({ deploy: false });
    const { chatId: undeployed } = await configure(draftOnly, { enabled: true });
    const refused = await send(visitor, undeployed, { message: "hello" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("not_deployed");
    expect(await conversationsOf(visitor, undeployed)).toEqual([]);
  });

  it("passes the conversation's earlier messages to the workflow as <start.history>, which the agent takes as memories", async () => {
    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true, title: "Support" });
    const visitor = new ChatBrowser();
    const info = visitor.keep(await chat.info(visitor.request("GET", `/api/chat/${chatId}`), { chatId }));
    expect((await info.json()) as PublicChatInfo).toEqual({ chatId, title: "Support", passwordRequired: false });

    kit.server.enqueue({ kind: "text", text: "Hello Ada, **nice** to meet you." });
    const first = await send(visitor, chatId, { message: "My name is Ada." });
    expect(first.status).toBe(200);
    const firstEvents = await chatEvents(first);
    const started = firstEvents.find((event) => event.event === "run.started")!.data as {
      conversationId: string;
      runId: string;
    };
    expect(firstEvents.at(-1)).toMatchObject({
      event: "run.completed",
      data: { reply: "Hello Ada, **nice** to meet you." },
    });
    expect(
      firstEvents
        .filter((event) => event.event === "block.delta")
        .map((event) => event.data.text)
        .join(""),
    ).toBe("Hello Ada, **nice** to meet you.");

    kit.server.enqueue({ kind: "text", text: "You are Ada." });
    const second = await send(visitor, chatId, { message: "What is my name?", conversationId: started.conversationId });
    expect((await chatEvents(second)).at(-1)).toMatchObject({
      event: "run.completed",
      data: { reply: "You are Ada." },
    });
    const sent = kit.server.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "My name is Ada."],
      ["assistant", "Hello Ada, **nice** to meet you."],
      ["user", "What is my name?"],
    ]);

    const runs = await runsOf(workflowId);
    expect(runs).toEqual([
      { triggerKind: "chat", conversationId: started.conversationId, status: "succeeded" },
      { triggerKind: "chat", conversationId: started.conversationId, status: "succeeded" },
    ]);
    expect(
      (await conversationsOf(visitor, chatId)).map((conversation) => [conversation.id, conversation.title]),
    ).toEqual([[started.conversationId, "My name is Ada."]]);
    const messages = (await (await messagesOf(visitor, chatId, started.conversationId)).json()) as {
      messages: ChatMessageView[];
    };
    expect(messages.messages.map((message) => [message.role, message.content, message.status])).toEqual([
      ["user", "My name is Ada.", "complete"],
      ["assistant", "Hello Ada, **nice** to meet you.", "complete"],
      ["user", "What is my name?", "complete"],
      ["assistant", "You are Ada.", "complete"],
    ]);
    expect(messages.messages.some((message) => "cost" in message || "tokens" in message)).toBe(false);
  });

  it("streams only the answering block's text to the public, with no cost or tokens; a member of the workspace sees the cost", async () => {
    const workflowId = await workflow({ classify: true });
    const { chatId } = await configure(workflowId, { enabled: true });
    kit.server.enqueue(
      { kind: "text", text: "INTERNAL-CLASS billing" },
      { kind: "text", text: "Here is your answer." },
    );
    const stranger = new ChatBrowser();
    const text = await (await send(stranger, chatId, { message: "Where is my invoice?" })).text();
    expect(text).toContain("Here is your answer.");
    expect(text).not.toContain("INTERNAL-CLASS");
    expect(text).not.toMatch(/"(cost|tokens|blockId|blockName|output|workflowId)"/);

    const userId = randomUUID();
    await kit.database.prisma.user.create({ data: { id: userId, name: "Mia", email: `mia-${userId}@example.com` } });
    await kit.database.prisma.workspaceMember.create({ data: { workspaceId: ws, userId, role: "viewer" } });
    const member = new ChatBrowser({ [TEST_USER_HEADER]: userId });
    kit.server.enqueue(
      { kind: "text", text: "billing" },
      { kind: "text", text: "Answer for a member.", usage: { prompt: 20, completion: 4 } },
    );
    const events = await chatEvents(await send(member, chatId, { message: "Where is my invoice?" }));
    const completed = events.at(-1)!;
    expect(completed).toMatchObject({ event: "run.completed", data: { reply: "Answer for a member." } });
    expect((completed.data.cost as { total: number }).total).toBeGreaterThan(0);
    expect((completed.data.tokens as { total: number }).total).toBeGreaterThanOrEqual(24);
    const conversationId = (events[0]!.data as { conversationId: string }).conversationId;
    const listed = (await (await messagesOf(member, chatId, conversationId)).json()) as { messages: ChatMessageView[] };
    expect(listed.messages[1]!.cost!.total).toBe((completed.data.cost as { total: number }).total);
    // Someone signed in to another workspace is the public here.
    const outsiderId = randomUUID();
    await kit.database.prisma.user.create({
      data: { id: outsiderId, name: "Oz", email: `oz-${outsiderId}@example.com` },
    });
    const outsider = new ChatBrowser({ [TEST_USER_HEADER]: outsiderId });
    kit.server.enqueue({ kind: "text", text: "c" }, { kind: "text", text: "Public answer." });
    expect(await (await send(outsider, chatId, { message: "hi" })).text()).not.toMatch(/"(cost|tokens)"/);
  });

  it("tells the public a failure in plain words, without the error's internals", async () => {
    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true });
    kit.server.enqueue({ kind: "error", status: 400, message: "secret internal detail" });
    const events = await chatEvents(await send(new ChatBrowser(), chatId, { message: "hello" }));
    expect(events.at(-1)).toMatchObject({
      event: "run.failed",
      data: { error: { message: expect.stringContaining("went wrong") } },
    });
    expect(JSON.stringify(events)).not.toContain("secret internal detail");
  });

  it("keeps each visitor to their own conversations: another cookie can neither list, read, continue nor stop them", async () => {
    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true });
    const ada = new ChatBrowser();
    const events = await chatEvents(await send(ada, chatId, { message: "private note" }));
    const conversationId = (events[0]!.data as { conversationId: string }).conversationId;
    expect(ada.cookies.get("trellis-chat-visitor")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const bob = new ChatBrowser();
    expect(await conversationsOf(bob, chatId)).toEqual([]);
    expect((await messagesOf(bob, chatId, conversationId)).status).toBe(404);
    expect((await send(bob, chatId, { message: "let me in", conversationId })).status).toBe(404);
    const stop = await chat.stop(bob.request("POST", `/api/chat/${chatId}/conversations/${conversationId}/stop`), {
      chatId,
      conversationId,
    });
    expect(stop.status).toBe(404);
    expect((await conversationsOf(ada, chatId)).map((conversation) => conversation.id)).toEqual([conversationId]);
  });

  it("asks for the password (401 password_required) until the visitor gives the right one, then remembers it", async () => {
    const workflowId = await workflow();
    const { chatId, hasPassword } = await configure(workflowId, { enabled: true, password: "open sesame" });
    expect(hasPassword).toBe(true);
    const visitor = new ChatBrowser();
    const info = (await visitor
      .keep(await chat.info(visitor.request("GET", `/api/chat/${chatId}`), { chatId }))
      .json()) as PublicChatInfo;
    expect(info.passwordRequired).toBe(true);
    const locked = await send(visitor, chatId, { message: "hello" });
    expect(locked.status).toBe(401);
    expect(((await locked.json()) as { error: { code: string } }).error.code).toBe("password_required");
    expect(
      (await chat.conversations(visitor.request("GET", `/api/chat/${chatId}/conversations`), { chatId })).status,
    ).toBe(401);

    const unlock = (password: string) =>
      chat
        .unlock(visitor.request("POST", `/api/chat/${chatId}/access`, { password }), { chatId })
        .then((r) => visitor.keep(r));
    expect((await unlock("wrong")).status).toBe(401);
    const granted = await unlock("open sesame");
    expect(granted.status).toBe(204);
    expect(granted.headers.getSetCookie().join()).toMatch(/trellis-chat-access=.*HttpOnly; SameSite=Lax/);
    const open = await send(visitor, chatId, { message: "hello" });
    expect(open.status).toBe(200);
    expect((await chatEvents(open)).at(-1)!.event).toBe("run.completed");

    // The access cookie is this visitor's: another browser holding it still needs the password.
    const copycat = new ChatBrowser();
    copycat.cookies.set("trellis-chat-access", visitor.cookies.get("trellis-chat-access")!);
    expect((await send(copycat, chatId, { message: "hello" })).status).toBe(401);
    // A new password asks again.
    await configure(workflowId, { enabled: true, password: "new secret" });
    expect((await send(visitor, chatId, { message: "hello" })).status).toBe(401);
    await configure(workflowId, { enabled: true, password: null });
    expect((await send(visitor, chatId, { message: "hello" })).status).toBe(200);
  });

  it("refuses a message over 16 KB with 413, and an empty one with 400", async () => {
    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true });
    const visitor = new ChatBrowser();
    const big = await send(visitor, chatId, { message: "é".repeat(8 * 1024 + 1) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toContain("16 KB");
    expect((await send(visitor, chatId, { message: "   " })).status).toBe(400);
    expect(await runsOf(workflowId)).toEqual([]);
  });

  it("stops the visitor's reply in progress: the run ends cancelled and the stream says so", async () => {
    const workflowId = await workflow();
    const { chatId } = await configure(workflowId, { enabled: true });
    kit.server.enqueue({
      kind: "text",
      text: Array.from({ length: 200 }, (_, index) => `word${index}`).join(" "),
      delayMs: 20,
    });
    const visitor = new ChatBrowser();
    const response = await send(visitor, chatId, { message: "tell me a long story" });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const conversationId = /"conversationId":"([^"]+)"/.exec(first)![1]!;
    const stop = await chat.stop(visitor.request("POST", `/api/chat/${chatId}/conversations/${conversationId}/stop`), {
      chatId,
      conversationId,
    });
    expect(await stop.json()).toEqual({ stopped: true });
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toContain("event: run.cancelled");
    const messages = (await (await messagesOf(visitor, chatId, conversationId)).json()) as {
      messages: ChatMessageView[];
    };
    expect(messages.messages.map((message) => message.status)).toEqual(["complete", "cancelled"]);
  });
});
